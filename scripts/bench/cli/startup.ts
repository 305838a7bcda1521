// `npm run bench:cli -- startup [--rounds=N] [--no-sea]`: wall time, CPU time and peak RSS of bbdc commands beside a
// bare `node -e 0`, interleaved in one run, from the checkout (bin/bbdc.js) and from a single executable built here
// from the same sources. `pr get` and `repo list` run against the fake Bitbucket on 127.0.0.1.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startFakeBitbucket } from '../../../test/fake-bitbucket/server.ts';
import { credentials } from '../../../test/fake-bitbucket/state.ts';
import { bundleForSea } from '../../release/bundle.ts';
import { injectBlob, makeBlob } from '../../release/sea.ts';

const root = join(import.meta.dirname, '..', '..', '..');
const preload = pathToFileURL(join(import.meta.dirname, 'rusage.mjs')).href;
type Sample = { wallMs: number; cpuMs: number; rssKiB: number };
type Case = { name: string; argv: string[]; goal?: (s: Sample, base: Sample) => string };

function once(exe: string[], argv: string[], env: NodeJS.ProcessEnv, file: string): Promise<Sample> {
  writeFileSync(file, '');
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const child = spawn(exe[0], [...exe.slice(1), ...argv], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stdout.resume();
    child.stderr.on('data', (d) => {
      err += d;
    });
    child.on('close', (code) => {
      const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
      if (code !== 0) return reject(new Error(`${[...exe, ...argv].join(' ')} exited ${code}: ${err}`));
      const line = readFileSync(file, 'utf8').trim().split('\n').at(-1);
      if (!line) return reject(new Error(`${argv.join(' ')}: the rusage preload wrote nothing`));
      resolve({ wallMs, ...(JSON.parse(line) as { cpuMs: number; rssKiB: number }) });
    });
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const pick = (samples: Sample[]): Sample => ({
  wallMs: median(samples.map((s) => s.wallMs)),
  cpuMs: median(samples.map((s) => s.cpuMs)),
  rssKiB: median(samples.map((s) => s.rssKiB)),
});

async function buildSea(dir: string): Promise<string> {
  const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version as string;
  // The executable ignores NODE_OPTIONS=--import, so the same probe is compiled into it.
  const probe = readFileSync(join(import.meta.dirname, 'rusage.mjs'), 'utf8')
    .replace(
      /^import \{ appendFileSync \} from 'node:fs';$/m,
      "const { appendFileSync } = require('node:fs');",
    )
    .replace(/^\/\/.*$/gm, '');
  const scripts = await bundleForSea(dir, version, `{${probe}}\n`);
  const blob = makeBlob(process.execPath, scripts, dir, { codeCache: true });
  const exe = join(dir, 'bbdc');
  await injectBlob(process.execPath, blob, exe, process.platform);
  return exe;
}

const cpuGoal = (s: Sample, base: Sample) => {
  const ratio = s.cpuMs / base.cpuMs;
  return `cpu ${ratio.toFixed(2)}x node (goal <= 1.3x) ${ratio <= 1.3 ? 'ok' : 'OVER GOAL'}`;
};
const cases: Case[] = [
  { name: 'node -e 0', argv: [] },
  { name: '--version', argv: ['--version'] },
  { name: '--help', argv: ['--help'], goal: cpuGoal },
  { name: 'pr get 1 --json', argv: ['pr', 'get', '1', '--json', '-R', 'PROJ/api'], goal: cpuGoal },
  {
    name: 'repo list --limit 5000',
    argv: ['repo', 'list', '--limit', '5000', '--json'],
    goal: (s) => `peak RSS goal <= 60 MB ${s.rssKiB / 1024 <= 60 ? 'ok' : 'OVER GOAL'}`,
  },
];

/** Runs every case `rounds` times per binary, interleaved, and prints medians with the goals. */
export async function run(args: string[]): Promise<void> {
  const rounds = Number(args.find((a) => a.startsWith('--rounds='))?.split('=')[1] ?? 10);
  const dir = mkdtempSync(join(tmpdir(), 'bbdc-bench-startup-'));
  const fake = await startFakeBitbucket({ dataset: 'large' });
  const file = join(dir, 'rusage.jsonl');
  const env = {
    PATH: process.env.PATH,
    HOME: dir,
    BBDC_URL: fake.url,
    BBDC_TOKEN: credentials.alice.token,
    BBDC_CONFIG_DIR: join(dir, 'config'),
    NODE_COMPILE_CACHE: join(dir, 'compile-cache'),
    NODE_OPTIONS: `--import=${preload}`,
    BBDC_BENCH_RUSAGE: file,
  };
  try {
    const binaries: [string, string[]][] = [['checkout', [process.execPath, join(root, 'bin', 'bbdc.js')]]];
    if (!args.includes('--no-sea')) {
      mkdirSync(join(dir, 'sea'));
      binaries.push(['single executable', [await buildSea(join(dir, 'sea'))]]);
    }
    const samples = new Map<string, Sample[]>();
    for (let i = 0; i < rounds + 1; i++) {
      for (const c of cases) {
        for (const [label, exe] of c.argv.length
          ? binaries
          : [['', [process.execPath, '-e', '0']] as const]) {
          const s = await once(exe as string[], c.argv, env, file);
          if (i === 0) continue; // the first round warms the compile cache and the page cache
          const key = `${label}|${c.name}`;
          samples.set(key, [...(samples.get(key) ?? []), s]);
        }
      }
    }
    const base = pick(samples.get('|node -e 0')!);
    console.log(`startup: ${rounds} interleaved rounds, medians, node ${process.version}, ${fake.url}`);
    for (const [key, list] of samples) {
      const [label, name] = key.split('|');
      const s = pick(list);
      const c = cases.find((x) => x.name === name)!;
      console.log(
        `  ${(label || 'bare').padEnd(18)} ${name.padEnd(24)} wall ${s.wallMs.toFixed(0).padStart(5)} ms  cpu ${s.cpuMs.toFixed(0).padStart(5)} ms  rss ${(s.rssKiB / 1024).toFixed(1).padStart(6)} MB  ${c.goal?.(s, base) ?? ''}`,
      );
    }
  } finally {
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
