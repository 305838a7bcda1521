import { RealmforgeError } from '../../core/errors.ts';
import type { FileOps } from './replace-executable.ts';

/** Starts a program that outlives bbdc, detached and hidden. */
export type StartDetached = (command: string, args: string[]) => Promise<void>;

/**
 * The batch script that swaps the staged executable in once process `pid` has exited (Windows keeps a running
 * .exe open), keeps the old one until the new one is in place, and puts it back when the move fails.
 */
export function swapScript(target: string, pid: number): string {
  const q = (p: string) => `"${p}"`;
  return [
    '@echo off',
    'setlocal',
    ':wait',
    `tasklist /FI "PID eq ${pid}" /NH 2>NUL | find " ${pid} " >NUL && (timeout /t 1 /nobreak >NUL & goto wait)`,
    `move /Y ${q(target)} ${q(`${target}.old`)} >NUL || exit /b 1`,
    `move /Y ${q(`${target}.new`)} ${q(target)} >NUL || (move /Y ${q(`${target}.old`)} ${q(target)} >NUL & exit /b 1)`,
    `del /F /Q ${q(`${target}.old`)} >NUL 2>NUL`,
    '(goto) 2>NUL & del "%~f0"',
    '',
  ].join('\r\n');
}

/** Stages `data` as `<target>.new` with a swap script beside it and starts the script; returns the staged path. */
export async function stageWindowsSwap(
  target: string,
  data: Buffer,
  pid: number,
  ops: FileOps,
  start: StartDetached,
): Promise<{ staged: string; script: string }> {
  const staged = `${target}.new`;
  const script = `${target}.update.cmd`;
  try {
    await ops.writeDurable(staged, data, 0o755);
    await ops.writeDurable(script, Buffer.from(swapScript(target, pid)), 0o644);
    await start('cmd.exe', ['/d', '/c', script]);
  } catch (error) {
    await ops.remove(staged).catch(() => {});
    await ops.remove(script).catch(() => {});
    throw new RealmforgeError(
      'internal',
      `could not stage the update beside ${target}: ${(error as Error).message}; it was not changed`,
      { cause: error },
    );
  }
  return { staged, script };
}
