import { UsageError } from '../../core/errors.ts';
import type { CommandDeps } from '../command.ts';

/** Asks for an irreversible change to be confirmed: --yes, or typing `name` on a terminal; else a UsageError. */
export async function confirmByName(
  deps: CommandDeps,
  what: string,
  name: string,
  yes: boolean,
): Promise<void> {
  if (yes) return;
  if (!deps.stdinIsTTY()) {
    throw new UsageError(
      `refusing to delete ${what} ${name} without --yes (there is no terminal to confirm on)`,
    );
  }
  const typed = await deps.prompt(`Type ${name} to delete ${what} ${name}: `, { secret: false });
  if (typed.trim() !== name) throw new UsageError(`"${typed.trim()}" is not ${name}; nothing was deleted`);
}
