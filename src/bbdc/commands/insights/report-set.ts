import type { InsightsReportOutput } from '../../../../generated/types/cli/output/insights-report.ts';
import { UsageError } from '../../../core/errors.ts';
import { parseDataFlag, type RestInsightReport, reportPath, toReport } from '../../api/insights.ts';
import { getIfExists } from '../../api/optional.ts';
import { type CommandDeps, defineCommand } from '../../command.ts';
import { apply, planOf } from '../../output/change.ts';
import { commitArg, fullCommitId, insightsContext, reportArg } from './common.ts';

type Options = { commit: string; key: string; body: Record<string, unknown> };

async function prepare(o: Options, deps: CommandDeps) {
  const { repo, client, repository } = await insightsContext(deps);
  const path = reportPath(repo, o.commit, o.key);
  const existing = await getIfExists<RestInsightReport>(client, path);
  return {
    client,
    intent: `bbdc insights report set ${o.commit.slice(0, 11)} ${o.key}`,
    host: repo.host.url,
    target: { type: 'insights-report', id: `${repository}@${o.commit.slice(0, 11)}/${o.key}` },
    request: { method: 'PUT', path, body: o.body },
    description: `${existing ? 'replace' : 'create'} report ${o.key} on ${o.commit.slice(0, 11)}`,
    predicted: existing ? ('update' as const) : ('create' as const),
    reasons: [
      existing
        ? `report ${o.key} exists (${existing.result ?? 'no result'}) and is replaced whole`
        : `commit has no report ${o.key}`,
    ],
  };
}

/** `bbdc insights report set <commit> <report>`: creates or replaces a report (what a CI step publishes). */
export const command = defineCommand<Options, InsightsReportOutput>({
  name: 'insights report set',
  summary: 'Create or replace a Code Insights report on a commit',
  args: [commitArg, reportArg],
  flags: {
    title: { type: 'string', shortFlag: 't', value: 'TEXT', description: 'Report title (required)' },
    result: { type: 'string', value: 'RESULT', choices: ['pass', 'fail'], description: 'pass or fail' },
    details: { type: 'string', value: 'TEXT', description: 'Longer description' },
    link: { type: 'string', value: 'URL', description: 'Where the full report lives' },
    reporter: { type: 'string', value: 'NAME', description: 'The tool that made the report' },
    data: {
      type: 'string',
      isMultiple: true,
      value: 'TITLE=VALUE',
      description: 'A data item (up to 6): numbers, true/false, URLs or text',
    },
  },
  outputSchema: 'insights-report',
  effect: 'mutating',
  examples: [
    'bbdc insights report set <sha> sonar --title SonarQube --result pass --data Coverage=87.5 --data Bugs=0',
  ],
  parse: ({ args, flags }) => {
    if (!flags.title) throw new UsageError('--title TEXT is required');
    return {
      commit: fullCommitId(args[0]),
      key: String(args[1]),
      body: {
        title: String(flags.title),
        data: parseDataFlag((flags.data as string[] | undefined) ?? []),
        ...(flags.result !== undefined && { result: String(flags.result).toUpperCase() }),
        ...(flags.details !== undefined && { details: String(flags.details) }),
        ...(flags.link !== undefined && { link: String(flags.link) }),
        ...(flags.reporter !== undefined && { reporter: String(flags.reporter) }),
      },
    };
  },
  plan: async (o, deps) => planOf(await prepare(o, deps)),
  async run(o, deps) {
    const res = await apply<RestInsightReport>(await prepare(o, deps));
    return toReport(res!.data);
  },
  human(d, ui) {
    ui.line(`Report ${d.key} set${d.result ? `: ${d.result}` : ''}`);
  },
});
