import type { InsightsAnnotationsOutput } from '../../../../generated/types/cli/output/insights-annotations.ts';
import { defineCommand } from '../../command.ts';
import { type AnnotationOptions, planAnnotation, runAnnotation } from './annotation-change.ts';
import { annotationBody, annotationFlags, commitArg, fullCommitId, reportArg } from './common.ts';

/** `bbdc insights annotation set <commit> <report> <external-id>`: creates or replaces the annotation with that id. */
export const command = defineCommand<AnnotationOptions, InsightsAnnotationsOutput>({
  name: 'insights annotation set',
  summary: 'Create or replace the annotation with your external id in a Code Insights report',
  args: [
    commitArg,
    reportArg,
    { name: 'external-id', required: true, description: 'Your id of the annotation' },
  ],
  flags: annotationFlags,
  outputSchema: 'insights-annotations',
  effect: 'mutating',
  examples: ['bbdc insights annotation set <sha> sonar S1234 --severity low --message "Fixed wording"'],
  parse: ({ args, flags }) => ({
    verb: 'set',
    commit: fullCommitId(args[0]),
    report: String(args[1]),
    externalId: String(args[2]),
    annotation: annotationBody(flags, String(args[2])),
  }),
  plan: planAnnotation,
  run: runAnnotation,
  human(d, ui) {
    ui.line(`Set annotation ${d.annotations[0]?.externalId} in report ${d.report}`);
  },
});
