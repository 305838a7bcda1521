import type { InsightsAnnotationsOutput } from '../../../../generated/types/cli/output/insights-annotations.ts';
import { insightsPath, type RestAnnotation, reportPath } from '../../api/insights.ts';
import { defineCommand } from '../../command.ts';
import type { Ui } from '../../output/ui.ts';
import { commitArg, fullCommitId, insightsContext, toAnnotation } from './common.ts';

/** Prints annotations: severity, where, message. */
export function printAnnotations(d: InsightsAnnotationsOutput, ui: Ui): void {
  if (!d.annotations.length) {
    ui.notice(`No annotations on ${d.commit.slice(0, 11)}${d.report ? ` in report ${d.report}` : ''}.`);
    return;
  }
  ui.table(
    ['severity', 'where', 'message', 'report', 'id'],
    d.annotations.map((a) => [
      a.severity.toLowerCase(),
      a.path ? `${a.path}${a.line ? `:${a.line}` : ''}` : '(commit)',
      a.message,
      a.report ?? d.report ?? '',
      a.externalId ?? '',
    ]),
  );
}

/** `bbdc insights annotation list <commit>`: every annotation of a commit, or those of one report. */
export const command = defineCommand<{ commit: string; report?: string }, InsightsAnnotationsOutput>({
  name: 'insights annotation list',
  summary: 'List the Code Insights annotations of a commit (every report, or --report)',
  args: [commitArg],
  flags: { report: { type: 'string', value: 'KEY', description: 'Only the annotations of this report' } },
  outputSchema: 'insights-annotations',
  effect: 'safe',
  examples: [
    'bbdc insights annotation list <sha>',
    'bbdc insights annotation list <sha> --report sonar --json',
  ],
  parse: ({ args, flags }) => ({ commit: fullCommitId(args[0]), report: flags.report as string | undefined }),
  async run(o, deps) {
    const { repo, client, repository } = await insightsContext(deps);
    const path = o.report
      ? reportPath(repo, o.commit, o.report, '/annotations')
      : insightsPath(repo, o.commit, '/annotations');
    const res = await client.get<{ annotations?: RestAnnotation[] }>(path);
    return {
      repository,
      commit: o.commit,
      ...(o.report && { report: o.report }),
      annotations: (res.annotations ?? []).map(toAnnotation),
    };
  },
  human: printAnnotations,
});
