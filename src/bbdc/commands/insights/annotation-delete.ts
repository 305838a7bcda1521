import type { InsightsAnnotationsOutput } from '../../../../generated/types/cli/output/insights-annotations.ts';
import { defineCommand } from '../../command.ts';
import { type AnnotationOptions, planAnnotation, runAnnotation } from './annotation-change.ts';
import { commitArg, fullCommitId, reportArg } from './common.ts';

/** `bbdc insights annotation delete <commit> <report>`: every annotation of a report, or those with --external-id. */
export const command = defineCommand<AnnotationOptions, InsightsAnnotationsOutput>({
  name: 'insights annotation delete',
  summary: 'Delete the annotations of a Code Insights report (all, or one with --external-id)',
  args: [commitArg, reportArg],
  flags: { externalId: { type: 'string', value: 'ID', description: 'Only the annotation with this id' } },
  outputSchema: 'insights-annotations',
  effect: 'mutating',
  examples: ['bbdc insights annotation delete <sha> sonar --external-id S1234'],
  parse: ({ args, flags }) => ({
    verb: 'delete',
    commit: fullCommitId(args[0]),
    report: String(args[1]),
    externalId: flags.externalId as string | undefined,
  }),
  plan: planAnnotation,
  run: runAnnotation,
  human(d, ui) {
    ui.line(`Deleted annotations of report ${d.report}`);
  },
});
