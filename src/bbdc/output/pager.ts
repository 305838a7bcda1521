// Long human output on a terminal goes through the user's pager (BBDC_PAGER, then PAGER), like git and gh do.
// Off when stdout is not a terminal, with --json, with --no-pager, or when the pager is empty or `cat`.
import type { Writer } from '../deps.ts';

type Env = Readonly<Record<string, string | undefined>>;

/** The pager command to use, or undefined for none. */
export function pagerCommand(env: Env, enabled: boolean): string | undefined {
  if (!enabled) return undefined;
  const command = (env.BBDC_PAGER ?? env.PAGER)?.trim();
  return command && command !== 'cat' ? command : undefined;
}

/** A Writer that keeps what is written, to page it (or print it) once the command is done. */
export function bufferWriter(): Writer & { take(): Buffer } {
  const chunks: Buffer[] = [];
  return {
    write: (chunk: string | Uint8Array) => chunks.push(Buffer.from(chunk)),
    take: () => Buffer.concat(chunks),
  };
}

/** True when the text has more lines than the terminal shows at once. */
export function isLong(text: Buffer, rows: number): boolean {
  let lines = 0;
  for (const byte of text) if (byte === 10 && ++lines >= rows) return true;
  return false;
}

/** Runs the pager through the shell with the text on stdin; LESS defaults to FRX (colour kept, no screen clear). */
export function runPager(command: string, text: Buffer, env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve) => {
    // node:child_process only when a pager runs, not in every command.
    const child = process.getBuiltinModule('node:child_process').spawn('sh', ['-c', command], {
      stdio: ['pipe', 'inherit', 'inherit'],
      env: { LESS: 'FRX', LV: '-c', ...env },
    });
    // A pager that cannot start, or quits before reading everything, is not an error: the user is done.
    child.stdin.on('error', () => {});
    child.on('error', () => {
      process.stdout.write(text);
      resolve();
    });
    child.on('close', () => resolve());
    child.stdin.end(text);
  });
}
