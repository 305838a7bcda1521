// What every `bbdc insights` command shares: the commit argument, the repository context, annotation flags.
import type { InsightAnnotation } from '../../../../generated/types/cli/output/insights-annotations.ts';
import { UsageError } from '../../../core/errors.ts';
import { fullCommitId } from '../../api/builds.ts';
import type { RestAnnotation } from '../../api/insights.ts';
import { positiveInt } from '../../cli/paging-flags.ts';
import type { ArgSpec, CommandDeps, FlagSpec } from '../../command.ts';

export const commitArg: ArgSpec = {
  name: 'commit',
  required: true,
  description: 'Full 40-character commit id',
};
export const reportArg: ArgSpec = { name: 'report', required: true, description: 'Report key, e.g. sonar' };

/** The repository and a client for it. */
export async function insightsContext(deps: CommandDeps) {
  const repo = await deps.repo();
  return { repo, client: await deps.client(repo.host), repository: `${repo.project}/${repo.slug}` };
}

export { fullCommitId };

/** The flags of one annotation (annotation add and set). */
export const annotationFlags: Record<string, FlagSpec> = {
  message: { type: 'string', shortFlag: 'm', value: 'TEXT', description: 'What was found (required)' },
  severity: {
    type: 'string',
    value: 'LEVEL',
    choices: ['low', 'medium', 'high'],
    description: 'low, medium or high (required)',
  },
  path: { type: 'string', value: 'PATH', description: 'File the annotation is on' },
  line: { type: 'string', value: 'N', description: 'Line in the file (with --path)' },
  type: {
    type: 'string',
    value: 'TYPE',
    choices: ['vulnerability', 'code-smell', 'bug'],
    description: 'vulnerability, code-smell or bug',
  },
  link: { type: 'string', value: 'URL', description: 'Where the tool explains it' },
};

/** One annotation request body from the flags; --message and --severity are required. */
export function annotationBody(flags: Record<string, unknown>, externalId?: string): RestAnnotation {
  if (!flags.message) throw new UsageError('--message TEXT is required: what the tool found');
  if (!flags.severity) throw new UsageError('--severity is required: low, medium or high');
  if (flags.line !== undefined && !flags.path)
    throw new UsageError('--line needs --path: say which file the line is in');
  return {
    ...(externalId && { externalId }),
    message: String(flags.message),
    severity: String(flags.severity).toUpperCase(),
    ...(flags.path !== undefined && { path: String(flags.path).replace(/^\/+/, '') }),
    ...(flags.line !== undefined && { line: positiveInt(flags.line, '--line', 1) }),
    ...(flags.type !== undefined && { type: String(flags.type).toUpperCase().replace('-', '_') }),
    ...(flags.link !== undefined && { link: String(flags.link) }),
  };
}

/** The annotation shape bbdc prints. */
export function toAnnotation(a: RestAnnotation): InsightAnnotation {
  return {
    ...(a.externalId && { externalId: a.externalId }),
    ...(a.reportKey && { report: a.reportKey }),
    ...(a.path && { path: a.path }),
    ...(a.line !== undefined && a.line > 0 && { line: a.line }),
    message: a.message,
    severity: a.severity as InsightAnnotation['severity'],
    ...(a.type && { type: a.type as InsightAnnotation['type'] }),
    ...(a.link && { link: a.link }),
  };
}
