// `realmforge dev up|down|logs|status`: wiring only. The embedded environment is built from the repository's
// scripts (scripts/dev/dev.ts over scripts/testenv/), so dev runs from a checkout (`npm start` there); an
// installed package, which ships no scripts, says so instead of failing on a missing import.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { UsageError } from '../../core/errors.ts';
import type { Io } from '../../core/io.ts';
import { packageRoot } from '../../core/package-root.ts';

export async function runDev(args: string[], io: Io, flags: { follow?: boolean }): Promise<number> {
  const [command, ...rest] = args;
  if (rest.length)
    throw new UsageError(`realmforge dev ${command} takes no arguments, got "${rest.join(' ')}"`);
  if (flags.follow && command !== 'logs')
    throw new UsageError('--follow is an option of realmforge dev logs only');
  const script = join(packageRoot(), 'scripts', 'dev', 'dev.ts');
  if (!existsSync(script))
    throw new UsageError(
      'realmforge dev runs from a checkout of the repository (it builds the embedded environment from its scripts): git clone it, then npm ci && npm start',
    );
  const { devMain } = (await import(pathToFileURL(script).href)) as {
    devMain: (command: string | undefined, io: Io, flags: { follow?: boolean }) => Promise<number>;
  };
  return devMain(command, io, flags);
}
