// `npm run bench:cli -- startup [--rounds=N] [--no-sea]`: CPU time, wall time and peak RSS of `bbdc --version`,
// `--help` and `pr get 1 --json` from the npm package (its bin run through its `#!/usr/bin/env node` line) and from a
// single executable, both built here from the same sources, beside a bare `node -e 0` and a bare node sending what
// `pr get` sends, interleaved in one run. `pr get` runs against the fake Bitbucket on 127.0.0.1. Goal: CPU within 1.5x
// bare node plus the same requests.
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodeFileOps } from '../../../src/bbdc/update/replace-executable.ts';
import { startFakeBitbucket } from '../../../test/fake-bitbucket/server.ts';
import { credentials } from '../../../test/fake-bitbucket/state.ts';
import { bundleBbdc } from '../../release/bundle.ts';
import { injectBlob, makeBlob } from '../../release/sea.ts';

const root = join(import.meta.dirname, '..', '..', '..');
const preload = join(import.meta.dirname, 'rusage.cjs');
const goal = 1.5;
type Sample = { wallMs: number; cpuMs: number; rssKiB: number };
/** `requests`: the command sends what the network floor sends, whose cost the goal leaves out. */
type Case = { name: string; argv: string[]; goal?: boolean; requests?: boolean };

/** Runs `exe argv` once; resolves to its wall time and what the rusage probe wrote to `file`. */
function once(exe: string, argv: string[], env: NodeJS.ProcessEnv, file: string): Promise<Sample> {
  writeFileSync(file, '');
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    // Through a shell that forks: Linux keeps the peak RSS across fork and exec, so a child spawned straight from this
    // process would report at least this process's peak. `"$@"; exit $?` makes sh fork rather than exec.
    const child = spawn('/bin/sh', ['-c', '"$@"; exit $?', 'sh', exe, ...argv], {
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (d) => {
      err += d;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
      if (code !== 0) return reject(new Error(`${exe} ${argv.join(' ')} exited ${code}: ${err}`));
      const line = readFileSync(file, 'utf8').trim().split('\n').at(-1);
      if (!line) return reject(new Error(`${argv.join(' ')}: the rusage probe wrote nothing`));
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

const version = () => JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version as string;

/**
 * A single executable as a user has it: written to disk the way `bbdc update` writes it (postject writes the whole
 * file in one write(), which Linux keeps in large page-cache folios that every run maps whole, inflating RSS).
 * The rusage probe is compiled in: an executable ignores NODE_OPTIONS.
 */
async function buildSea(dir: string): Promise<string> {
  const probe = readFileSync(preload, 'utf8').replace(/^\/\/.*$/gm, '');
  const blob = makeBlob(process.execPath, await bundleBbdc(dir, version(), 'sea', `{${probe}}\n`), dir, {
    codeCache: true,
  });
  const built = join(dir, 'bbdc.built');
  await injectBlob(process.execPath, blob, built, process.platform);
  const exe = join(dir, 'bbdc');
  await (await nodeFileOps()).writeDurable(exe, readFileSync(built), 0o755);
  return exe;
}

// The requests `pr get 1` makes, sent by a bare node on one kept-alive connection: the pull request and its merge
// status (process.getBuiltinModule: the cheapest way to node:http).
const netProbe = `const http = process.getBuiltinModule('node:http');
const agent = new http.Agent({ keepAlive: true });
const pr = new URL('/rest/api/latest/projects/PROJ/repos/api/pull-requests/1', process.env.BBDC_URL);
const get = (u, then) => http.get(u, { agent, headers: { authorization: 'Bearer ' + process.env.BBDC_TOKEN } }, (r) => {
  let b = ''; r.on('data', (d) => (b += d)); r.on('end', () => then(JSON.parse(b)));
});
get(pr, (p) => get(pr + '/merge', (m) => { process.stdout.write(JSON.stringify({ ...p, m }).slice(0, 20)); agent.destroy(); }));`;

const cases: Case[] = [
  { name: '--version', argv: ['--version'] },
  { name: '--help', argv: ['--help'], goal: true },
  {
    name: 'pr get 1 --json',
    argv: ['pr', 'get', '1', '--json', '-R', 'PROJ/api'],
    goal: true,
    requests: true,
  },
];

/** Runs every case `rounds` times per binary, interleaved with the floors, and prints medians with the goal. */
export async function run(args: string[]): Promise<void> {
  const rounds = Number(args.find((a) => a.startsWith('--rounds='))?.split('=')[1] ?? 10);
  const dir = mkdtempSync(join(tmpdir(), 'bbdc-bench-startup-'));
  const fake = await startFakeBitbucket({ dataset: 'large' });
  const file = join(dir, 'rusage.jsonl');
  const env = {
    PATH: process.env.PATH,
    HOME: dir,
    NODE_COMPILE_CACHE: join(dir, 'compile-cache'),
    BBDC_URL: fake.url,
    BBDC_TOKEN: credentials.alice.token,
    BBDC_CONFIG_DIR: join(dir, 'config'),
    NODE_OPTIONS: `--require=${preload}`,
    BBDC_BENCH_RUSAGE: file,
  };
  try {
    const { main } = await bundleBbdc(join(dir, 'npm'), version(), 'npm');
    chmodSync(main, 0o755);
    const binaries: [string, string][] = [['npm package', main]];
    if (!args.includes('--no-sea')) {
      mkdirSync(join(dir, 'sea'));
      binaries.push(['single executable', await buildSea(join(dir, 'sea'))]);
    }
    const bare: [string, string[]][] = [
      ['node -e 0', ['-e', '0']],
      ['node GET x2 (network floor)', ['-e', netProbe]],
    ];
    const load = loadavg().map((l) => l.toFixed(1));
    const samples = new Map<string, Sample[]>();
    const add = (key: string, s: Sample) => samples.set(key, [...(samples.get(key) ?? []), s]);
    // The first round warms the compile cache and the page cache and is not counted.
    for (let i = 0; i < rounds + 1; i++) {
      for (const [name, argv] of bare) {
        const s = await once(process.execPath, argv, env, file);
        if (i) add(`bare|${name}`, s);
      }
      for (const c of cases)
        for (const [label, exe] of binaries) {
          const s = await once(exe, c.argv, env, file);
          if (i) add(`${label}|${c.name}`, s);
        }
    }
    const base = pick(samples.get('bare|node -e 0')!).cpuMs;
    const net = pick(samples.get('bare|node GET x2 (network floor)')!).cpuMs;
    console.log(
      `startup: ${rounds} interleaved rounds, medians, node ${process.version}, load average ${load.join(' ')} (start)`,
    );
    for (const [key, list] of samples) {
      const [label, name] = key.split('|');
      const s = pick(list);
      const c = cases.find((x) => x.name === name);
      // The command's CPU less what its requests cost bare node (the floor less `node -e 0`), over bare node.
      const ratio = (s.cpuMs - (c?.requests ? net - base : 0)) / base;
      const verdict = c?.goal
        ? `cpu ${ratio.toFixed(2)}x node${c.requests ? ' less the requests' : ''} (goal <= ${goal}x) ${ratio <= goal ? 'ok' : 'OVER GOAL'}`
        : '';
      console.log(
        `  ${label.padEnd(18)} ${name.padEnd(28)} wall ${s.wallMs.toFixed(0).padStart(4)} ms  cpu ${s.cpuMs.toFixed(1).padStart(5)} ms  rss ${(s.rssKiB / 1024).toFixed(1).padStart(5)} MB  ${verdict}`,
      );
    }
    console.log(
      `load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')} (end)`,
    );
  } finally {
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
