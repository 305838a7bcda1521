import { UsageError } from '../../../core/errors.ts';
import type { CommandDeps } from '../../command.ts';

/** Where a description comes from: `-` reads stdin; none opens the editor on a terminal or reads piped stdin. */
export async function readDescription(
  value: string | undefined,
  deps: CommandDeps,
  interactive: boolean,
): Promise<string> {
  if (value === '-') return (await deps.readStdin()).trimEnd();
  if (value !== undefined) return value;
  if (!interactive) return '';
  if (deps.stdinIsTTY && deps.stdoutIsTTY && !deps.globals.json)
    return (await deps.editText('', 'PULL_REQUEST_DESCRIPTION.md')).trimEnd();
  if (!deps.stdinIsTTY) return (await deps.readStdin()).trimEnd();
  return '';
}

/** The title from --title, or asked for on a terminal; a UsageError when there is neither. */
export async function readTitle(value: string | undefined, deps: CommandDeps): Promise<string> {
  const title =
    value ?? (deps.stdinIsTTY && !deps.globals.json ? await deps.prompt('Title: ', { secret: false }) : '');
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
