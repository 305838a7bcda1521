import type { InsightsAnnotationsOutput } from '../../../../generated/types/cli/output/insights-annotations.ts';
import { defineCommand } from '../../command.ts';
import { type AnnotationOptions, planAnnotation, runAnnotation } from './annotation-change.ts';
import { annotationBody, annotationFlags, commitArg, fullCommitId, reportArg } from './common.ts';

/** `bbdc insights annotation add <commit> <report>`: adds one annotation to a report. */
export const command = defineCommand<AnnotationOptions, InsightsAnnotationsOutput>({
  name: 'insights annotation add',
  summary: 'Add an annotation (a finding on a file line) to a Code Insights report',
  args: [commitArg, reportArg],
  flags: {
    ...annotationFlags,
    externalId: { type: 'string', value: 'ID', description: 'Your id for it, so `set` can replace it later' },
  },
  outputSchema: 'insights-annotations',
  effect: 'mutating',
  examples: [
    'bbdc insights annotation add <sha> sonar --path src/app.ts --line 12 --severity high --message "Null dereference"',
  ],
  parse: ({ args, flags }) => ({
    verb: 'add',
    commit: fullCommitId(args[0]),
    report: String(args[1]),
    annotation: annotationBody(flags, flags.externalId as string | undefined),
  }),
  plan: planAnnotation,
  run: runAnnotation,
  human(d, ui) {
    ui.line(`Added an annotation to report ${d.report}`);
  },
});
