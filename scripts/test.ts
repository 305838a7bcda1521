// Runs every uvu suite in its own process, two at a time (e2e: one at a time in each of the environments), and ends with the line `N passed, N failed`.
// Three tiers: `npm test` (unit, golden and CLI suites: Node only), `npm run test:charts` (test/chart: runs helm,
// which is built from Go modules on first use) and `npm run test:e2e` (test/e2e: the embedded environment).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { walkFiles } from '../src/core/walk-files.ts';

const e2e = process.argv.includes('--e2e');
const charts = process.argv.includes('--charts');
// --contract: the suites under test/contract/ (bbdc against Prism serving the Bitbucket OpenAPI document); a CI step.
const contract = process.argv.includes('--contract');
const tiers = ['test/e2e/', 'test/chart/', 'test/contract/'];
const tier = e2e ? 'test/e2e/' : charts ? 'test/chart/' : contract ? 'test/contract/' : undefined;
const tierOf = (rel: string) => tiers.find((k) => rel.startsWith(k));
const filters = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const root = join(import.meta.dirname, '..');

const all = walkFiles(
  join(root, 'test'),
  (name) => name.endsWith('.test.ts'),
  (dir) => dir === 'golden' || dir === 'fixtures',
).filter((f) => tierOf(relative(root, f)) === tier);
// Filters match the path inside the repository, not the checkout's own directory name.
const files = filters.length ? all.filter((f) => filters.some((x) => relative(root, f).includes(x))) : all;
const ansi = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');

type Result = { file: string; passed: number; failed: number; output: string; ms: number };

function runSuite(file: string, extraEnv: Record<string, string | undefined>): Promise<Result> {
  const started = Date.now();
  return new Promise((resolve) => {
    const times = e2e ? ['--import', join(root, 'scripts', 'testenv', 'test-times.ts')] : [];
    const child = spawn(process.execPath, [...times, file], {
      cwd: root,
      env: { ...process.env, ...extraEnv, FORCE_COLOR: '0', NODE_DISABLE_COLORS: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => {
      output += d;
    });
    child.stderr.on('data', (d) => {
      output += d;
    });
    child.on('close', (code) => {
      const text = output.replace(ansi, '');
      const total = Number(/Total:\s+(\d+)/.exec(text)?.[1] ?? 0);
      const passed = Number(/Passed:\s+(\d+)/.exec(text)?.[1] ?? 0);
      // uvu's Total counts the tests that ran; test.skip() ones are only in Skipped (the suites never use .only).
      let failed = total - passed;
      if (code !== 0 && failed === 0) failed = 1; // a suite that crashed or exited non-zero counts as a failure
      resolve({ file: relative(root, file), passed, failed, output: text, ms: Date.now() - started });
    });
  });
}

// e2e: whole test environments (scripts/testenv/e2e-run.ts), torn down at the end even on failure.
// A suite that starts and stops its own environment (`realmforge dev`) says so with the line
// `// e2e-environment: own`; it takes its turn in a worker's queue like the others but runs in none of the
// shared environments (it is given no environment variables of theirs).
const ownsEnvironment = (file: string) =>
  e2e && readFileSync(file, 'utf8').includes('\n// e2e-environment: own\n');
const shared = files.filter((f) => !ownsEnvironment(f));
// Each worker runs its suites in one environment (a shard, scripts/testenv/e2e-run.ts), from when it is up; unit
// suites need none.
let workers: Promise<Record<string, string>>[] = Array.from(
  { length: Number(process.env.TEST_CONCURRENCY ?? 2) },
  async () => ({}),
);
let teardown: (() => Promise<void>) | undefined;
if (e2e && shared.length) {
  const { prepareE2e, shardCount } = await import('./testenv/e2e-run.ts');
  const prepared = prepareE2e(Math.min(shardCount(), shared.length));
  workers = prepared.shards;
  teardown = prepared.teardown;
}
// While a shard comes up, this process's REALMFORGE_TESTENV_STATE names it: a suite with an environment of its own
// gets the one this run was started with.
const ownEnv = { REALMFORGE_TESTENV_STATE: process.env.REALMFORGE_TESTENV_STATE };

// e2e suites run longest first, so the shards end together: by the durations of the last full run on this
// machine (kept in the cache), else by those measured in CI and committed (test/e2e/durations.json).
const durationsFile = join(
  process.env.REALMFORGE_CACHE_DIR || join(root, '.cache'),
  'testenv',
  'e2e-durations.json',
);
const measured = [durationsFile, join(root, 'test', 'e2e', 'durations.json')].find((f) => existsSync(f));
const lastDurations: Record<string, number> =
  e2e && measured ? JSON.parse(readFileSync(measured, 'utf8')) : {};
const longestFirst = (suites: readonly string[]) =>
  [...suites].sort(
    (a, b) => (lastDurations[relative(root, b)] ?? Infinity) - (lastDurations[relative(root, a)] ?? Infinity),
  );

const results: Result[] = [];
async function runAll(
  suites: readonly string[],
  envs: readonly Promise<Record<string, string>>[],
): Promise<void> {
  const queue = e2e ? longestFirst(suites) : [...suites];
  await Promise.all(
    envs.map(async (ready, i) => {
      let env: Record<string, string>;
      try {
        env = await ready;
      } catch (error) {
        const { describeError } = await import('../src/core/errors.ts');
        const output = `the test environment did not come up: ${describeError(error)}`;
        results.push({ file: `environment ${i + 1}`, passed: 0, failed: 1, output, ms: 0 });
        console.log(`FAIL ${output}`);
        return;
      }
      for (let file = queue.shift(); file; file = queue.shift()) {
        const r = await runSuite(file, ownsEnvironment(file) ? ownEnv : env);
        results.push(r);
        const mark = r.failed ? 'FAIL' : 'ok  ';
        const shard = ownsEnvironment(file)
          ? ' [its own environment]'
          : e2e && envs.length > 1
            ? ` [environment ${i + 1}]`
            : '';
        console.log(`${mark} ${r.file} (${r.passed} passed, ${r.failed} failed, ${r.ms} ms)${shard}`);
        if (r.failed || process.env.TEST_VERBOSE) console.log(r.output.replace(/^/gm, '    '));
      }
    }),
  );
}
try {
  await runAll(files, shared.length ? workers : [Promise.resolve({})]);
} finally {
  await teardown?.();
}
if (e2e && files.length === all.length) {
  mkdirSync(dirname(durationsFile), { recursive: true });
  writeFileSync(
    durationsFile,
    `${JSON.stringify(Object.fromEntries(results.filter((r) => r.ms).map((r) => [r.file, r.ms])), null, 2)}\n`,
  );
}
const passed = results.reduce((n, r) => n + r.passed, 0);
const failed = results.reduce((n, r) => n + r.failed, 0);
if (files.length === 0) console.log('no test suites found');
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed > 0 || passed === 0 ? 1 : 0;
