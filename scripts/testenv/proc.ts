// Processes of the test environment: one-shot commands, detached daemons with log files, readiness waits.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { ComponentError } from './errors.ts';

/** A command line as a person would type it, for error messages. */
export function commandLine(cmd: string, args: readonly string[]): string {
  return [cmd, ...args].map((a) => (/^[\w./:=,@+-]+$/.test(a) ? a : JSON.stringify(a))).join(' ');
}

/** The last `n` lines of a log file, or a note that there is none. */
export function lastLines(file: string, n = 30): string[] {
  if (!existsSync(file)) return [`(no log at ${file})`];
  return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-n);
}

export type RunOptions = {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  logFile?: string;
  uid?: number;
  gid?: number;
};

/** Runs a command to completion and returns its output; throws a ComponentError with its last lines on failure. */
export function run(cmd: string, args: readonly string[], options: RunOptions = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      uid: options.uid,
      gid: options.gid,
    });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => chunks.push(d));
    child.stderr.on('data', (d: Buffer) => chunks.push(d));
    child.on('error', (e) =>
      reject(new ComponentError(`could not run ${cmd}: ${e.message}`, [commandLine(cmd, args)])),
    );
    child.on('close', (code) => {
      const output = Buffer.concat(chunks).toString();
      if (options.logFile) writeFileSync(options.logFile, output, { flag: 'a' });
      if (code === 0) return resolve(output);
      const tail = output.trimEnd().split('\n').slice(-30);
      reject(
        new ComponentError(`${cmd} exited with code ${code}`, [
          `command: ${commandLine(cmd, args)}`,
          ...tail,
        ]),
      );
    });
  });
}

/** A started background process: its PID (also its process group) and how it was started. */
export type Daemon = {
  name: string;
  pid: number;
  command: string;
  logFile: string;
  stopSignal?: NodeJS.Signals;
};

/** Starts a detached process writing to `logFile`; it outlives this Node process until stopped by PID. */
export function startDaemon(
  name: string,
  cmd: string,
  args: readonly string[],
  options: {
    env?: NodeJS.ProcessEnv;
    cwd?: string;
    logFile: string;
    uid?: number;
    gid?: number;
    stopSignal?: NodeJS.Signals;
  },
): Daemon {
  const fd = openSync(options.logFile, 'a');
  const child = spawn(cmd, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    detached: true,
    stdio: ['ignore', fd, fd],
    uid: options.uid,
    gid: options.gid,
  });
  closeSync(fd);
  if (child.pid === undefined)
    throw new ComponentError(`could not start ${name}`, [`command: ${commandLine(cmd, args)}`]);
  child.on('error', () => {});
  child.unref();
  return {
    name,
    pid: child.pid,
    command: commandLine(cmd, args),
    logFile: options.logFile,
    stopSignal: options.stopSignal,
  };
}

/** Whether a process with this PID is alive (and not a zombie). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true;
  }
}

/** Stops a daemon started here: SIGTERM to its process group, SIGKILL after `graceMs`. */
export async function stopDaemon(
  pid: number,
  graceMs = 10_000,
  first: NodeJS.Signals = 'SIGTERM',
): Promise<void> {
  const signal = (s: NodeJS.Signals) => {
    try {
      process.kill(-pid, s);
    } catch {
      try {
        process.kill(pid, s);
      } catch {}
    }
  };
  if (!alive(pid)) return;
  signal(first);
  const deadline = Date.now() + graceMs;
  while (alive(pid) && Date.now() < deadline) await sleep(100);
  if (alive(pid)) signal('SIGKILL');
  while (alive(pid) && Date.now() < deadline + 5000) await sleep(100);
}

/** Polls `check` until it returns true; fails with the daemon's last log lines and command if it dies or times out. */
export async function waitReady(
  daemon: Daemon,
  check: () => Promise<boolean>,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    const dead = !alive(daemon.pid);
    if (dead || Date.now() > deadline) {
      const why = dead ? 'exited' : `was not ready after ${Math.round(timeoutMs / 1000)} s`;
      throw new ComponentError(`${daemon.name} ${why}`, [
        `command: ${daemon.command}`,
        `log: ${daemon.logFile} (last lines below)`,
        ...lastLines(daemon.logFile),
      ]);
    }
    await sleep(dead ? 0 : 250);
  }
}
