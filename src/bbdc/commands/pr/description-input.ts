import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError } from '../../../core/errors.ts';
import type { CommandDeps, FlagSpec } from '../../command.ts';

/** The --description and --description-file flags of pr create and update. */
export const descriptionFlags: Record<string, FlagSpec> = {
  description: { type: 'string', shortFlag: 'd', value: 'TEXT', description: 'Description (Markdown)' },
  descriptionFile: {
    type: 'string',
    value: 'FILE',
    description: 'Read the description from a file; - reads stdin',
  },
};

/** Where the description was given: its text, or a file (`-` for stdin); undefined when neither flag was used. */
export type DescriptionSource = { text?: string; file?: string };

/** The description source from parsed flags; both flags at once is a UsageError. */
export function descriptionSource(flags: Record<string, unknown>): DescriptionSource {
  if (flags.description !== undefined && flags.descriptionFile !== undefined)
    throw new UsageError('pass --description or --description-file, not both');
  return { text: flags.description as string | undefined, file: flags.descriptionFile as string | undefined };
}

/** Whether any description was given on the command line. */
export const hasDescription = (s: DescriptionSource) => s.text !== undefined || s.file !== undefined;

/** Reads the description: the text, the file or stdin; with none, the editor on a terminal or piped stdin. */
export async function readDescription(
  source: DescriptionSource,
  deps: CommandDeps,
  interactive: boolean,
): Promise<string> {
  if (source.file === '-') return (await deps.readStdin()).trimEnd();
  if (source.file !== undefined) {
    try {
      return readFileSync(resolve(deps.cwd, source.file), 'utf8').trimEnd();
    } catch (error) {
      throw new UsageError(
        `--description-file ${source.file} cannot be read (${(error as NodeJS.ErrnoException).code}); pass a readable file or - for stdin`,
      );
    }
  }
  if (source.text !== undefined) return source.text;
  if (!interactive) return '';
  if (deps.stdoutIsTTY && !deps.globals.json && deps.stdinIsTTY())
    return (await deps.editText('', 'PULL_REQUEST_DESCRIPTION.md')).trimEnd();
  if (!deps.stdinIsTTY()) return (await deps.readStdin()).trimEnd();
  return '';
}

/** Whether a missing --title can be asked for: a terminal on stdin, and no --json. */
export const canAskTitle = (deps: CommandDeps) => !deps.globals.json && deps.stdinIsTTY();

/** The title from --title, or asked for on a terminal; a UsageError when there is neither. */
export async function readTitle(value: string | undefined, deps: CommandDeps): Promise<string> {
  const title = value ?? (canAskTitle(deps) ? await deps.prompt('Title: ', { secret: false }) : '');
  if (!title.trim()) throw new UsageError('--title is required (a pull request needs a title)');
  return title.trim();
}

/** The branch checked out in the working directory; a UsageError naming `flag` when there is none. */
export async function currentBranch(deps: CommandDeps, flag: string): Promise<string> {
  const res = await deps.git(['symbolic-ref', '--quiet', '--short', 'HEAD'], deps.cwd);
  const branch = res.stdout.trim();
  if (res.code !== 0 || !branch)
    throw new UsageError(
      `${flag} BRANCH is needed: no branch is checked out here (not a clone, or a detached HEAD)`,
    );
  return branch;
}
