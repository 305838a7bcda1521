// `npm run bench:cli -- wall [--rounds=N] [--latency=MS]`: wall time of `pr get`, `pr status` and `pr checks`
// against the fake Bitbucket answering each request after 50 ms (a distant server), beside a bare Node process that
// sends the same requests as early as they can go (wall-bare.mjs: requests that depend on no answer at once, the
// rest as soon as what they need has arrived). bbdc runs as users install it (the npm package, built in the run) and
// from the checkout (its sources). Interleaved in one run; goal: the npm package within 1.2x of the bare script.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RecordedRequest, startFakeBitbucket } from '../../../test/fake-bitbucket/server.ts';
import { credentials } from '../../../test/fake-bitbucket/state.ts';
import { bundleBbdc } from '../../release/bundle.ts';

const root = join(import.meta.dirname, '..', '..', '..');
const goal = 1.2;
/** A command and the requests it needs, in waves: each wave's count of requests depends only on earlier waves. */
const cases: { name: string; argv: string[]; waves: number[] }[] = [
  { name: 'pr get 1', argv: ['pr', 'get', '1', '--json'], waves: [2] },
  { name: 'pr status', argv: ['pr', 'status', '--json'], waves: [2, 1] },
  { name: 'pr checks 1', argv: ['pr', 'checks', '1', '--json'], waves: [1, 2] },
];

function timed(command: string, args: string[], env: NodeJS.ProcessEnv, cwd: string) {
  const started = process.hrtime.bigint();
  return new Promise<number>((resolve, reject) => {
    const child = spawn(command, args, { env, cwd, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => {
      err += d;
    });
    child.on('error', reject);
    child.on('close', (code) =>
      // pr checks exits 8 while builds are pending (the fake's are): an answer, not a failure.
      code === 0 || code === 8
        ? resolve(Number(process.hrtime.bigint() - started) / 1e6)
        : reject(new Error(`${command} ${args.join(' ')} exited ${code}: ${err}`)),
    );
  });
}

/** The requests bbdc sent, cut into the case's waves, as the bare script sends them. */
function wavesOf(sent: RecordedRequest[], counts: number[], base: string) {
  const starts = counts.map((_, i) => counts.slice(0, i).reduce((a, b) => a + b, 0));
  return counts.map((n, i) =>
    sent.slice(starts[i], starts[i] + n).map((q) => ({
      method: q.method,
      url: `${base}${q.path}${q.query.size ? `?${q.query}` : ''}`,
      ...(q.body !== undefined && { body: JSON.stringify(q.body) }),
    })),
  );
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Runs every case `rounds` times, bbdc and the bare script alternately, and prints the medians side by side. */
export async function run(args: string[]): Promise<void> {
  const option = (name: string, fallback: number) =>
    Number(args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
  const rounds = option('rounds', 9);
  const latencyMs = option('latency', 50);
  const dir = mkdtempSync(join(tmpdir(), 'bbdc-bench-wall-'));
  const fake = await startFakeBitbucket({ latencyMs });
  const env = {
    PATH: process.env.PATH,
    HOME: dir,
    BBDC_CONFIG_DIR: join(dir, 'config'),
    BBDC_URL: fake.url,
    BBDC_TOKEN: credentials.alice.token,
    BBDC_PROJECT: 'PROJ',
    BBDC_REPO: 'api',
  };
  const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version as string;
  const { main } = await bundleBbdc(join(dir, 'npm'), version, 'npm');
  const checkout = join(root, 'bin', 'bbdc.js');
  const bare = join(import.meta.dirname, 'wall-bare.mjs');
  try {
    console.log(
      `wall: each answer of the fake Bitbucket delayed ${latencyMs} ms; median of ${rounds} rounds, bbdc and a bare node sending the same requests alternately (node ${process.version}, load ${loadavg()[0].toFixed(1)})`,
    );
    console.log(
      `  ${'command'.padEnd(14)}${'requests'.padEnd(12)}${'npm pkg'.padStart(9)}${'checkout'.padStart(10)}${'bare'.padStart(9)}  ratio (npm pkg, checkout)`,
    );
    for (const c of cases) {
      const before = fake.requests.length;
      await timed(process.execPath, [main, ...c.argv], env, dir);
      const sent = fake.requests.slice(before);
      const expected = c.waves.reduce((a, b) => a + b, 0);
      if (sent.length !== expected)
        throw new Error(`${c.name} sent ${sent.length} requests, the case expects ${expected}`);
      const plan = JSON.stringify({
        token: credentials.alice.token,
        waves: wavesOf(sent, c.waves, fake.url),
      });
      const times = { npm: [] as number[], checkout: [] as number[], bare: [] as number[] };
      for (let i = 0; i < rounds; i++) {
        times.npm.push(await timed(process.execPath, [main, ...c.argv], env, dir));
        times.checkout.push(await timed(process.execPath, [checkout, ...c.argv], env, dir));
        times.bare.push(await timed(process.execPath, [bare, plan], env, dir));
      }
      const [n, k, f] = [median(times.npm), median(times.checkout), median(times.bare)];
      const ms = (x: number, width: number) => `${x.toFixed(0)} ms`.padStart(width);
      console.log(
        `  ${c.name.padEnd(14)}${c.waves.join(' then ').padEnd(12)}${ms(n, 9)}${ms(k, 10)}${ms(f, 9)}  ${(n / f).toFixed(2)}x, ${(k / f).toFixed(2)}x  goal ${goal}x: ${n / f <= goal ? 'ok' : 'OVER GOAL'}`,
      );
    }
    if (fake.violations.length)
      throw new Error(`requests outside the OpenAPI document: ${fake.violations[0]}`);
  } finally {
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
