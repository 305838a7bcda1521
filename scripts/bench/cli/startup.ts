// `npm run bench:cli -- startup [--rounds=N] [--no-sea] [--instructions [--instruction-runs=N]]`: wall time, CPU time
// and peak RSS of bbdc commands beside a bare `node -e 0`, interleaved in one run, from the checkout (bin/bbdc.js run
// as a user runs it, through its first line: its sources, and the bundle `npm run build` makes, which this benchmark
// builds first), from the npm package and from a single executable, both built here from the same sources. `pr get`
// and `repo list` run against the fake Bitbucket on 127.0.0.1. The network floor is a bare node that sends the same
// two GETs with node:http: the CPU goal is 1.3x bare node plus those requests. Memory floors: a bare node that lists
// the same 5,000 repositories in bbdc's 1,000-item pages, and Node's trivial single executable (only the probe in it).
// Both executables are written to disk as `bbdc update` writes one (see `installed`), not as postject leaves them.
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodeFileOps } from '../../../src/bbdc/update/replace-executable.ts';
import { startFakeBitbucket } from '../../../test/fake-bitbucket/server.ts';
import { credentials } from '../../../test/fake-bitbucket/state.ts';
import { bundleForCheckout, bundleForNpm, bundleForSea } from '../../release/bundle.ts';
import { injectBlob, makeBlob } from '../../release/sea.ts';
import { countInstructions, requireValgrind } from './instructions.ts';

const root = join(import.meta.dirname, '..', '..', '..');
const preload = join(import.meta.dirname, 'rusage.cjs');
type Sample = { wallMs: number; cpuMs: number; rssKiB: number };
/** `requests`: the command sends what the network floor sends (pr get), whose cost the CPU goal leaves out. */
type Case = {
  name: string;
  argv: string[];
  requests?: boolean;
  goal?: (s: Sample, base: Sample, net: Sample, c: Case) => string;
};
/** A way to run bbdc: label, command, environment, and the cases it runs (all when not given). */
type Binary = [string, string[], NodeJS.ProcessEnv, ((c: Case) => boolean)?];
// The checkout's TypeScript sources run when BBDC_CHECKOUT_BUNDLE=0 (stack traces with source lines) and after an
// edit until the next `npm run build`: shown for what that costs, held to no goal. The goals are for what runs bbdc
// day to day: the checkout's bundle, the npm package and the executable.
const sourcesLabel = 'checkout sources';
const goalOf = (label: string, verdict: () => string) =>
  label === sourcesLabel ? '(the sources, for debugging: no goal)' : verdict();

function once(
  exe: string[],
  argv: string[],
  env: NodeJS.ProcessEnv,
  file: string,
  retry = true,
): Promise<Sample> {
  writeFileSync(file, '');
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    // Through a shell that forks: Linux keeps the peak RSS across fork and exec (a child spawned straight from
    // this process reports at least this process's peak, so a small child read 52 MB here), and a shell's fork
    // starts the count from the shell's 1-2 MB. `"$@"; exit $?` makes sh fork rather than exec the command.
    const child = spawn('/bin/sh', ['-c', '"$@"; exit $?', 'sh', ...exe, ...argv], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    // A file just written (the executable) can briefly refuse to run (ETXTBSY): wait and try once more.
    child.on('error', (e: NodeJS.ErrnoException) =>
      e.code === 'ETXTBSY' && retry
        ? setTimeout(() => once(exe, argv, env, file, false).then(resolve, reject), 200)
        : reject(e),
    );
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

// An executable ignores NODE_OPTIONS, so the same probe is compiled into it.
const seaProbe = () => readFileSync(preload, 'utf8').replace(/^\/\/.*$/gm, '');

const version = () => JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version as string;

async function buildSea(dir: string): Promise<string> {
  const scripts = await bundleForSea(dir, version(), `{${seaProbe()}}\n`);
  const blob = makeBlob(process.execPath, scripts, dir, { codeCache: true });
  return installed(dir, 'bbdc', (built) => injectBlob(process.execPath, blob, built, process.platform));
}

/**
 * An executable as a user has it: written to disk the way `bbdc update` writes it. postject writes the whole 126 MB
 * file in one write(), which Linux keeps in large page-cache folios that every run maps whole: the same executable
 * then peaked about 20 MB higher in RSS (and took fewer page faults) than after a download or an update.
 */
async function installed(dir: string, name: string, build: (path: string) => Promise<void>): Promise<string> {
  const built = join(dir, `${name}.built`);
  await build(built);
  const exe = join(dir, name);
  await (await nodeFileOps()).writeDurable(exe, readFileSync(built), 0o755);
  rmSync(built);
  return exe;
}

/** Node's own floor for a single executable: one whose main script is only the probe, with bbdc's V8 flags. */
async function buildTrivialSea(dir: string): Promise<string> {
  const main = join(dir, 'main.cjs');
  writeFileSync(main, `{${seaProbe()}}\n`);
  const blob = makeBlob(process.execPath, { main, bundle: main }, dir);
  return installed(dir, 'trivial', (built) => injectBlob(process.execPath, blob, built, process.platform));
}

// The CPU goal: within 1.3x bare node plus the network time of the command's requests (none for --help), read as
// the command's cost less what its requests cost bare node (the floor less `node -e 0`), over bare node. In CPU
// milliseconds or in instructions alike.
const lessRequests = (n: number, base: number, net: number, c: Case) =>
  (n - (c.requests ? net - base : 0)) / base;
const verdict = (ratio: number, c: Case) =>
  `${ratio.toFixed(2)}x node${c.requests ? ' less the requests' : ''} (goal <= 1.3x) ${ratio <= 1.3 ? 'ok' : 'OVER GOAL'}`;
const cpuGoal = (s: Sample, base: Sample, net: Sample, c: Case) =>
  `cpu ${verdict(lessRequests(s.cpuMs, base.cpuMs, net.cpuMs, c), c)}`;
const rssGoal = (s: Sample) => `peak RSS goal <= 60 MB ${s.rssKiB / 1024 <= 60 ? 'ok' : 'OVER GOAL'}`;
// The requests `pr get 1` makes, sent by a bare node: the pull request, then its merge status, on one kept-alive
// connection (process.getBuiltinModule: the cheapest way to node:http).
const netProbe = `const http = process.getBuiltinModule('node:http');
const agent = new http.Agent({ keepAlive: true });
const pr = new URL('/rest/api/latest/projects/PROJ/repos/api/pull-requests/1', process.env.BBDC_URL);
const get = (u, then) => http.get(u, { agent, headers: { authorization: 'Bearer ' + process.env.BBDC_TOKEN } }, (r) => {
  let b = ''; r.on('data', (d) => (b += d)); r.on('end', () => then(JSON.parse(b)));
});
get(pr, (p) => get(pr + '/merge', (m) => { process.stdout.write(JSON.stringify({ ...p, m }).slice(0, 20)); agent.destroy(); }));`;
// What any Node program pays to list 5,000 repositories 1,000 a time (bbdc's page size) and print them as JSON
// lines: the memory floor of `repo list --limit 5000` on this Node. With `collect`, it runs a full garbage collection
// while each page after the first is fetched, as bbdc did while it read whole pages (needs --expose-gc).
const listProbe = (collect: boolean) => `const http = process.getBuiltinModule('node:http');
const page = (start, left) => { const req = http.get(new URL('/rest/api/latest/repos?start=' + start + '&limit=' + Math.min(1000, left), process.env.BBDC_URL), { headers: { authorization: 'Bearer ' + process.env.BBDC_TOKEN } }, (r) => {
  const chunks = []; r.on('data', (d) => chunks.push(d)); r.on('end', () => {
    const p = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    let out = ''; for (const v of p.values) out += JSON.stringify(v) + '\\n'; process.stdout.write(out);
    if (!p.isLastPage && left > p.values.length) setImmediate(page, p.nextPageStart, left - p.values.length);
  });
}); ${collect ? "if (start > 0) setImmediate(() => gc({ type: 'major' }));" : ''} };
page(0, 5000);`;
const cases: Case[] = [
  { name: 'node -e 0', argv: [] },
  { name: 'node GET x2 (network floor)', argv: [] },
  { name: 'node list 5000 (floor)', argv: [] },
  { name: 'node list 5000, gc a page', argv: [] },
  { name: 'trivial executable', argv: [] },
  { name: 'empty script, env', argv: [] },
  { name: 'empty script, sh', argv: [] },
  { name: '--version', argv: ['--version'] },
  { name: '--help', argv: ['--help'], goal: cpuGoal },
  {
    name: 'pr get 1 --json',
    argv: ['pr', 'get', '1', '--json', '-R', 'PROJ/api'],
    requests: true,
    goal: cpuGoal,
  },
  {
    name: 'repo list --limit 5000 --json',
    argv: ['repo', 'list', '--limit', '5000', '--json'],
    goal: rssGoal,
  },
  { name: 'repo list --limit 5000', argv: ['repo', 'list', '--limit', '5000'], goal: rssGoal },
];

/**
 * The CPU goals again, in instructions: the median of `runs` callgrind runs each, after the timed rounds warmed every
 * cache, less V8's hash seed search (instructions.ts), which moved one run by 4-17 million from the next; what is left
 * moves by about a million (V8's background threads), and the spread is printed beside each median.
 */
async function printInstructions(
  binaries: Binary[],
  bare: Record<string, string[]>,
  env: NodeJS.ProcessEnv,
  runs: number,
): Promise<void> {
  const count = async (exe: string[], argv: string[], e = env) => {
    // Without the rusage probe: instructions need no preload (the executables' compiled-in probe then does nothing).
    const { NODE_OPTIONS: _, BBDC_BENCH_RUSAGE: __, ...plain } = e;
    const all: number[] = [];
    for (let i = 0; i < runs; i++) all.push(await countInstructions(exe, argv, plain));
    all.sort((a, b) => a - b);
    return { median: all[Math.floor(all.length / 2)], min: all[0], max: all[all.length - 1] };
  };
  const m = (n: number) => `${(n / 1e6).toFixed(0)}M`;
  const spread = (c: { min: number; max: number }) => `(${m(c.min)}-${m(c.max)})`;
  const base = await count(bare['node -e 0'], []);
  const net = await count(bare['node GET x2 (network floor)'], []);
  console.log(
    `instructions (callgrind less V8's hash seed search, medians of ${runs}): node -e 0 ${m(base.median)} ${spread(base)}, node GET x2 ${m(net.median)} ${spread(net)}`,
  );
  for (const c of cases.filter((x) => x.goal === cpuGoal))
    for (const [label, exe, e, only] of binaries) {
      if (only && !only(c)) continue;
      const n = await count(exe, c.argv, e);
      console.log(
        `  ${label.padEnd(18)} ${c.name.padEnd(30)} ${m(n.median).padStart(5)} ${spread(n).padEnd(12)} ${goalOf(label, () => verdict(lessRequests(n.median, base.median, net.median, c), c))}`,
      );
    }
}

/** Runs every case `rounds` times per binary, interleaved, and prints medians with the goals. */
export async function run(args: string[]): Promise<void> {
  const rounds = Number(args.find((a) => a.startsWith('--rounds='))?.split('=')[1] ?? 10);
  if (args.includes('--instructions')) requireValgrind();
  const dir = mkdtempSync(join(tmpdir(), 'bbdc-bench-startup-'));
  const fake = await startFakeBitbucket({ dataset: 'large' });
  const file = join(dir, 'rusage.jsonl');
  const env = {
    PATH: process.env.PATH,
    HOME: dir,
    BBDC_URL: fake.url,
    BBDC_TOKEN: credentials.alice.token,
    BBDC_CONFIG_DIR: join(dir, 'config'),
    NODE_OPTIONS: `--require=${preload}`,
    BBDC_BENCH_RUSAGE: file,
  };
  try {
    // The checkout as a user runs it: bin/bbdc.js through its first line (`#!/bin/sh`, which runs node from PATH
    // with bbdc's V8 flags).
    const bin = join(root, 'bin', 'bbdc.js');
    await bundleForCheckout();
    const binaries: Binary[] = [
      [sourcesLabel, [bin], { ...env, BBDC_CHECKOUT_BUNDLE: '0' }],
      ['checkout bundle', [bin], env],
    ];
    // The npm package as npm links it: its bin (the executables' launcher, reading its scripts from files) through
    // the shebang.
    const { main } = await bundleForNpm(join(dir, 'npm'), version());
    chmodSync(main, 0o755);
    binaries.push(['npm package', [main], env]);
    if (!args.includes('--no-sea')) {
      mkdirSync(join(dir, 'sea'));
      binaries.push(['single executable', [await buildSea(join(dir, 'sea'))], env]);
    }
    const bare: Record<string, string[]> = {
      'node -e 0': [process.execPath, '-e', '0'],
      'node GET x2 (network floor)': [process.execPath, '-e', netProbe],
      'node list 5000 (floor)': [process.execPath, '-e', listProbe(false)],
      'node list 5000, gc a page': [process.execPath, '--expose-gc', '-e', listProbe(true)],
    };
    // What any script started as the npm package's bin (env) and bin/bbdc.js (sh, with its flags) are pays before
    // its first statement: the program its first line names, run by the kernel, then node's loading of a main module
    // (resolution, its package.json's type) that `node -e` skips. Shown, not subtracted: the goal is against bare node.
    for (const [name, lines] of [
      ['empty script, env', '#!/usr/bin/env node\n'],
      ['empty script, sh', readFileSync(bin, 'utf8').split('\n').slice(0, 2).join('\n')],
    ]) {
      const empty = join(dir, `${name.split(', ')[1]}.cjs`);
      writeFileSync(empty, `${lines}\n`);
      chmodSync(empty, 0o755);
      bare[name] = [empty];
    }
    if (!args.includes('--no-sea')) {
      mkdirSync(join(dir, 'trivial'));
      bare['trivial executable'] = [await buildTrivialSea(join(dir, 'trivial'))];
    }
    // Read before the rounds: the machine's load while they ran is between this and the figure printed at the end.
    const load = loadavg().map((l) => l.toFixed(1));
    const samples = new Map<string, Sample[]>();
    for (let i = 0; i < rounds + 1; i++) {
      for (const c of cases) {
        if (!c.argv.length && !bare[c.name]) continue; // the trivial executable under --no-sea
        const runs = c.argv.length
          ? binaries.filter(([, , , only]) => only?.(c) ?? true)
          : [['', bare[c.name], env] as const];
        for (const [label, exe, e] of runs) {
          const s = await once(exe as string[], c.argv, e, file);
          if (i === 0) continue; // the first round warms the compile cache and the page cache
          const key = `${label}|${c.name}`;
          samples.set(key, [...(samples.get(key) ?? []), s]);
        }
      }
    }
    const base = pick(samples.get('|node -e 0')!);
    const net = pick(samples.get('|node GET x2 (network floor)')!);
    console.log(
      `startup: ${rounds} interleaved rounds, medians, node ${process.version}, ${fake.url}, load average ${load.join(' ')} (start)`,
    );
    for (const [key, list] of samples) {
      const [label, name] = key.split('|');
      const s = pick(list);
      const c = cases.find((x) => x.name === name)!;
      console.log(
        `  ${(label || 'bare').padEnd(18)} ${name.padEnd(30)} wall ${s.wallMs.toFixed(0).padStart(5)} ms  cpu ${s.cpuMs.toFixed(0).padStart(5)} ms  rss ${(s.rssKiB / 1024).toFixed(1).padStart(6)} MB  ${c.goal ? goalOf(label, () => c.goal!(s, base, net, c)) : ''}`,
      );
    }
    const floor = (name: string) => {
      const list = samples.get(`|${name}`);
      return list ? `${(pick(list).rssKiB / 1024).toFixed(1)} MB` : 'not built (--no-sea)';
    };
    console.log(
      `peak RSS floors: bare node ${floor('node -e 0')}, a bare node listing 5,000 repositories in whole 1,000-item pages ${floor('node list 5000 (floor)')} (${floor('node list 5000, gc a page')} with a full collection a page), Node's trivial single executable ${floor('trivial executable')}`,
    );
    if (args.includes('--instructions')) {
      const runs = Number(args.find((a) => a.startsWith('--instruction-runs='))?.split('=')[1] ?? 5);
      await printInstructions(binaries, bare, env, runs);
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
