import type { InsightsReportDeleteOutput } from '../../../../generated/types/cli/output/insights-report-delete.ts';
import { type RestInsightReport, reportPath } from '../../api/insights.ts';
import { getIfExists } from '../../api/optional.ts';
import { type CommandDeps, defineCommand } from '../../command.ts';
import { apply, planOf } from '../../output/change.ts';
import { commitArg, fullCommitId, insightsContext, reportArg } from './common.ts';

type Options = { commit: string; key: string };

async function prepare(o: Options, deps: CommandDeps) {
  const { repo, client, repository } = await insightsContext(deps);
  const path = reportPath(repo, o.commit, o.key);
  const existing = await getIfExists<RestInsightReport>(client, path);
  return {
    repository,
    existed: existing !== undefined,
    change: {
      client,
      intent: `bbdc insights report delete ${o.commit.slice(0, 11)} ${o.key}`,
      host: repo.host.url,
      target: { type: 'insights-report', id: `${repository}@${o.commit.slice(0, 11)}/${o.key}` },
      request: { method: 'DELETE', path },
      description: `delete report ${o.key} and its annotations`,
      predicted: existing ? ('delete' as const) : ('no-op' as const),
      reasons: [existing ? `report ${o.key} exists` : `commit has no report ${o.key}`],
    },
  };
}

/** `bbdc insights report delete <commit> <report>`: removes a report and its annotations (nothing to do if absent). */
export const command = defineCommand<Options, InsightsReportDeleteOutput>({
  name: 'insights report delete',
  summary: 'Delete a Code Insights report and its annotations',
  args: [commitArg, reportArg],
  flags: {},
  outputSchema: 'insights-report-delete',
  effect: 'mutating',
  examples: ['bbdc insights report delete <sha> sonar'],
  parse: ({ args }) => ({ commit: fullCommitId(args[0]), key: String(args[1]) }),
  plan: async (o, deps) => planOf((await prepare(o, deps)).change),
  async run(o, deps) {
    const p = await prepare(o, deps);
    await apply(p.change);
    return { repository: p.repository, commit: o.commit, report: o.key, deleted: p.existed };
  },
  human(d, ui) {
    ui.line(
      d.deleted
        ? `Deleted report ${d.report}`
        : `No report ${d.report} on ${d.commit.slice(0, 11)}; nothing to delete`,
    );
  },
});
