// Instructions a process runs, counted by valgrind's callgrind: unlike CPU time they barely move with the machine's
// load, so a change of a few ms can be seen on a shared machine (`bench:cli startup --instructions`).
import { spawn, spawnSync } from 'node:child_process';

/** Refuses with what to install when valgrind is missing. */
export function requireValgrind(): void {
  if (spawnSync('valgrind', ['--version']).status !== 0)
    throw new Error(
      '--instructions needs valgrind on PATH (apt-get install valgrind); run without it for times only',
    );
}

/** Runs `exe argv` once under callgrind and resolves to the instructions it ran (all threads). */
export function countInstructions(exe: string[], argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  // --smc-check: V8 writes the code it runs; without it valgrind would run stale copies. --trace-children:
  // bin/bbdc.js starts through its shebang (env, then node); the last count is node's.
  const vg = [
    '--tool=callgrind',
    '--callgrind-out-file=/dev/null',
    '--smc-check=all-non-file',
    '--trace-children=yes',
    ...exe,
    ...argv,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn('valgrind', vg, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => {
      err += d;
    });
    child.on('close', (code) => {
      const m = [...err.matchAll(/Collected : (\d+)/g)].at(-1);
      if (code !== 0 || !m)
        return reject(new Error(`valgrind ${[...exe, ...argv].join(' ')} exited ${code}: ${err}`));
      resolve(Number(m[1]));
    });
  });
}
