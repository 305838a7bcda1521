// `npm run bench:cli -- [case...]`: `startup` times `bbdc --version` against `node -e 0`, interleaved in one run;
// every other case is a file in scripts/bench/cli/.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const bin = join(import.meta.dirname, '..', '..', 'bin', 'bbdc.js');

function time(args: string[]): number {
  const started = process.hrtime.bigint();
  const res = spawnSync(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (res.status !== 0) throw new Error(`${args.join(' ')} exited ${res.status}: ${res.stderr}`);
  return ms;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function startup(rounds: number): void {
  const base: number[] = [];
  const bbdc: number[] = [];
  for (let i = 0; i < 3; i++) {
    time(['-e', '0']);
    time([bin, '--version']);
  }
  for (let i = 0; i < rounds; i++) {
    base.push(time(['-e', '0']));
    bbdc.push(time([bin, '--version']));
  }
  const ratio = median(bbdc) / median(base);
  console.log(`startup (${rounds} interleaved rounds, median, node ${process.version})`);
  console.log(`  node -e 0        ${median(base).toFixed(1)} ms`);
  console.log(`  bbdc --version   ${median(bbdc).toFixed(1)} ms`);
  console.log(`  ratio            ${ratio.toFixed(2)}x (goal <= 1.5x) ${ratio <= 1.5 ? 'ok' : 'OVER GOAL'}`);
}

/** Runs the named CLI benchmarks (default: startup); a case other than startup is scripts/bench/cli/<case>.ts. */
export async function run(args: string[]): Promise<void> {
  const cases = args.filter((a) => !a.startsWith('--'));
  const rounds = Number(args.find((a) => a.startsWith('--rounds='))?.split('=')[1] ?? 20);
  const dir = join(import.meta.dirname, 'cli');
  const known = [
    'startup',
    ...(existsSync(dir)
      ? readdirSync(dir)
          .filter((f) => f.endsWith('.ts'))
          .map((f) => f.slice(0, -3))
      : []),
  ];
  for (const name of cases.length ? cases : ['startup']) {
    if (name === 'startup') startup(rounds);
    else if (known.includes(name))
      await ((await import(join(dir, `${name}.ts`))) as { run(args: string[]): Promise<void> }).run(args);
    else console.error(`unknown case: ${name}; cases: ${known.join(', ')}`);
  }
}
