import type { InsightsReportOutput } from '../../../../generated/types/cli/output/insights-report.ts';
import { type RestInsightReport, reportPath, toReport } from '../../api/insights.ts';
import { defineCommand } from '../../command.ts';
import { commitArg, fullCommitId, insightsContext, reportArg } from './common.ts';

/** `bbdc insights report get <commit> <report>`: one report with its data. */
export const command = defineCommand<{ commit: string; key: string }, InsightsReportOutput>({
  name: 'insights report get',
  summary: 'Show one Code Insights report of a commit',
  args: [commitArg, reportArg],
  flags: {},
  outputSchema: 'insights-report',
  effect: 'safe',
  examples: ['bbdc insights report get <sha> sonar'],
  parse: ({ args }) => ({ commit: fullCommitId(args[0]), key: String(args[1]) }),
  async run(o, deps) {
    const { repo, client } = await insightsContext(deps);
    return toReport(await client.get<RestInsightReport>(reportPath(repo, o.commit, o.key)));
  },
  human(d, ui) {
    ui.line(`${ui.bold(d.title)} (${d.key})${d.result ? `: ${d.result}` : ''}`);
    if (d.reporter) ui.line(`Reporter: ${d.reporter}`);
    if (d.link) ui.line(ui.dim(d.link));
    for (const item of d.data)
      ui.line(
        `  ${item.title}: ${typeof item.value === 'object' ? JSON.stringify(item.value) : String(item.value)}`,
      );
    if (d.details) ui.line(`\n${d.details}`);
  },
});
