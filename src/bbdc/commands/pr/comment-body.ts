import { UsageError } from '../../../core/errors.ts';
import { type Id, parseId } from '../../api/ids.ts';
import type { CommandDeps, FlagSpec } from '../../command.ts';
import { type DescriptionSource, readDescription } from './description-input.ts';

/** The --body and --body-file flags of comment add and task create. */
export const bodyFlags: Record<string, FlagSpec> = {
  body: { type: 'string', shortFlag: 'b', value: 'TEXT', description: 'The text (Markdown)' },
  bodyFile: { type: 'string', value: 'FILE', description: 'Read the text from a file; - reads stdin' },
};

/** The body source from parsed flags: exactly one of --body and --body-file. */
export function bodySource(flags: Record<string, unknown>): DescriptionSource {
  if (flags.body !== undefined && flags.bodyFile !== undefined)
    throw new UsageError('pass --body or --body-file, not both');
  if (flags.body === undefined && flags.bodyFile === undefined)
    throw new UsageError('--body TEXT (or --body-file FILE, - for stdin) is required');
  return { text: flags.body as string | undefined, file: flags.bodyFile as string | undefined };
}

/** Reads the body; an empty one is a UsageError, since the server refuses it. */
export async function readBody(source: DescriptionSource, deps: CommandDeps): Promise<string> {
  const text = await readDescription(source, deps, false);
  if (!text.trim()) throw new UsageError(`${source.file !== undefined ? '--body-file' : '--body'} is empty`);
  return text;
}

/** Parses a comment or task id argument. */
export function parseCommentId(value: string | undefined, what: string): Id {
  return parseId(`${what} id`, value, 'int64', 'see `bbdc pr comment list`');
}
