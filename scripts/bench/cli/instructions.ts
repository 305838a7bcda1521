// Instructions a process runs, counted by valgrind's callgrind: unlike CPU time they barely move with the machine's
// load, so a change of a few ms can be seen on a shared machine (`bench:cli startup --instructions`).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Refuses with what to install when valgrind is missing. */
export function requireValgrind(): void {
  if (spawnSync('valgrind', ['--version']).status !== 0)
    throw new Error(
      '--instructions needs valgrind on PATH (apt-get install valgrind); run without it for times only',
    );
}

/**
 * V8 draws a random hash seed for each process and searches for primes from it (HashSeed::InitializeRoots): 4 to 17
 * million instructions, different in every run of the same program, the most of one run's spread. It is counted out.
 */
const hashSeed = 'v8::internal::HashSeed::InitializeRoots';

/**
 * Runs `exe argv` once under callgrind and resolves to the instructions it ran (all threads), less V8's hash seed
 * search. --smc-check: V8 writes the code it runs; without it valgrind would run stale copies. --trace-children:
 * bin/bbdc.js starts through its shebang (env, then node): node's is the largest count.
 */
export function countInstructions(exe: string[], argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'bbdc-callgrind-'));
  const vg = [
    '--tool=callgrind',
    `--callgrind-out-file=${join(dir, 'out.%p')}`,
    '--smc-check=all-non-file',
    '--trace-children=yes',
    ...exe,
    ...argv,
  ];
  return new Promise<number>((resolve, reject) => {
    const child = spawn('valgrind', vg, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => {
      err += d;
    });
    child.on('close', (code) => {
      if (code !== 0)
        return reject(new Error(`valgrind ${[...exe, ...argv].join(' ')} exited ${code}: ${err}`));
      // callgrind_annotate's lines start with the count: the program's total, and each function's with its callees.
      const count = (lines: string[], mark: string) =>
        Number(
          lines
            .find((l) => l.includes(mark))
            ?.trim()
            .split(' ')[0]
            .replaceAll(',', '') ?? 0,
        );
      const counts = readdirSync(dir).map((f) => {
        const annotated = spawnSync('callgrind_annotate', ['--inclusive=yes', join(dir, f)], {
          encoding: 'utf8',
        });
        const lines = annotated.stdout.split('\n');
        return count(lines, 'PROGRAM TOTALS') - count(lines, `:${hashSeed}(`);
      });
      resolve(Math.max(0, ...counts));
    });
  }).finally(() => rmSync(dir, { recursive: true, force: true }));
}
