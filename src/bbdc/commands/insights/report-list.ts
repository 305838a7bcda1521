import type { InsightsReportListOutput } from '../../../../generated/types/cli/output/insights-report-list.ts';
import { insightsPath, type RestInsightReport, toReport } from '../../api/insights.ts';
import { collectPages } from '../../api/paging.ts';
import { positiveInt } from '../../cli/paging-flags.ts';
import { defineCommand } from '../../command.ts';
import type { Ui } from '../../output/ui.ts';
import { commitArg, fullCommitId, insightsContext } from './common.ts';

/** Prints reports as a table: key, result, title and their data items. */
export function printReports(reports: InsightsReportListOutput['reports'], ui: Ui): void {
  ui.table(
    ['key', 'result', 'title', 'data'],
    reports.map((r) => [
      r.key,
      r.result ?? '-',
      r.title,
      r.data
        .map((d) => `${d.title}=${typeof d.value === 'object' ? JSON.stringify(d.value) : String(d.value)}`)
        .join(', '),
    ]),
  );
}

/** `bbdc insights report list <commit>`: the Code Insights reports of a commit. */
export const command = defineCommand<{ commit: string; limit: number }, InsightsReportListOutput>({
  name: 'insights report list',
  summary: 'List the Code Insights reports of a commit',
  args: [commitArg],
  flags: {
    limit: {
      type: 'string',
      shortFlag: 'L',
      value: 'N',
      description: 'Maximum number in total (default 100)',
    },
  },
  outputSchema: 'insights-report-list',
  effect: 'safe',
  examples: ['bbdc insights report list $(git rev-parse HEAD)'],
  parse: ({ args, flags }) => ({
    commit: fullCommitId(args[0]),
    limit: positiveInt(flags.limit, '--limit', 100),
  }),
  async run(o, deps) {
    const { repo, client, repository } = await insightsContext(deps);
    const { values, truncated } = await collectPages<RestInsightReport>(
      client,
      insightsPath(repo, o.commit, '/reports'),
      {},
      o.limit,
    );
    return { repository, commit: o.commit, reports: values.map(toReport), truncated };
  },
  human(d, ui) {
    if (!d.reports.length) ui.notice(`No Code Insights reports on ${d.commit}.`);
    else printReports(d.reports, ui);
  },
});
