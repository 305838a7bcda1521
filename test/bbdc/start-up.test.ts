// How bbdc starts: the checkout's bins run the sources through `#!/usr/bin/env node`, and the npm package runs one
// bundle a command group with Node's module compile cache (scripts/release/bundle.ts, launcher.ts).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { bundleBbdc } from '../../scripts/release/bundle.ts';
import { credentials } from '../fake-bitbucket/state.ts';
import { withFake } from './helpers/fake.ts';

const test = suite('bbdc start-up');
const root = join(import.meta.dirname, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'bbdc-start-up-'));
const npm = join(dir, 'npm');
let fake: Awaited<ReturnType<typeof withFake>>;

test.before(async () => {
  await bundleBbdc(npm, '0.0.0-test', 'npm');
  fake = await withFake('large');
});
test.after(async () => {
  await fake.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs `exe args` (not spawnSync: the fake answers from this process); `env` is added to a plain environment. */
async function run(exe: string[], args: string[], env: NodeJS.ProcessEnv = {}) {
  const child = spawn(exe[0], [...exe.slice(1), ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: process.env.PATH,
      HOME: dir,
      BBDC_CONFIG_DIR: join(dir, 'config'),
      BBDC_URL: fake.url,
      BBDC_TOKEN: credentials.alice.token,
      ...env,
    },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const status = await new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { status, stdout, stderr };
}

const launcher = () => [process.execPath, join(npm, 'main.cjs')];

test('every bin starts with #!/usr/bin/env node, and npm link from the checkout links bin/bbdc.js', () => {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { bin: Record<string, string> };
  const first = (file: string) => readFileSync(file, 'utf8').split('\n')[0];
  for (const bin of Object.values(pkg.bin)) assert.is(first(join(root, bin)), '#!/usr/bin/env node', bin);
  assert.is(first(join(npm, 'main.cjs')), '#!/usr/bin/env node', "the npm package's bin");
  // A global prefix of its own; offline, without scripts: npm only links the checkout, it fetches and builds nothing.
  const prefix = join(dir, 'prefix');
  const link = spawnSync('npm', ['link', '--offline', '--ignore-scripts', '--no-audit', '--no-fund'], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, npm_config_prefix: prefix },
  });
  assert.is(link.status, 0, link.stderr);
  const linked = join(prefix, 'bin', 'bbdc');
  assert.is(first(linked), '#!/usr/bin/env node');
  const version = spawnSync(linked, ['--version'], { encoding: 'utf8' });
  const pkgVersion = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
  assert.is(version.stdout, `bbdc ${pkgVersion} (commit ${head()}, checkout ${root})\n`);
});

const head = () => spawnSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8' }).stdout.trim();

test('the npm package names the commit it was built from', async () => {
  const version = await run(launcher(), ['--version']);
  assert.is(version.stdout, `bbdc 0.0.0-test (commit ${head()})\n`);
});

test("the checkout runs its sources with Node's compile cache, which serves the next run", async () => {
  const cache = join(dir, 'checkout-cache');
  const bin = [process.execPath, join(root, 'bin', 'bbdc.js')];
  const first = await run(bin, ['pr', 'lst'], { NODE_COMPILE_CACHE: cache });
  assert.is(first.status, 2, first.stderr);
  assert.match(first.stderr, 'unknown command "pr lst"');
  assert.ok(readdirSync(cache).length > 0, 'Node wrote its compile cache');
  const next = await run(bin, ['pr', 'lst'], {
    NODE_COMPILE_CACHE: cache,
    NODE_DEBUG_NATIVE: 'COMPILE_CACHE',
  });
  assert.match(next.stderr, /V8 code cache for ESM .*src\/bbdc\/cli\/run\.ts was accepted/);
});

test('a bundle rebuilt with a change of the same length runs the new code', async () => {
  // The old own code cache was keyed by the bundle's length, and V8 accepts a cache made for another text of that
  // length: it ran the previous build. Node's compile cache is keyed by the content.
  const env = { NODE_COMPILE_CACHE: join(dir, 'same-length-cache'), NODE_DEBUG_NATIVE: 'COMPILE_CACHE' };
  const bundle = join(npm, 'bbdc-auth.cjs');
  const text = readFileSync(bundle, 'utf8');
  const title = 'Log in, manage servers, aliases and credentials';
  assert.match(text, title);
  for (let i = 0; i < 2; i++) {
    const r = await run(launcher(), ['auth', '--help'], env);
    assert.match(r.stdout, `bbdc auth: ${title}`);
    if (i) assert.match(r.stderr, /V8 code cache for CommonJS .*bbdc-auth\.cjs was accepted/);
  }
  writeFileSync(bundle, text.replace(title, title.toUpperCase()));
  try {
    const r = await run(launcher(), ['auth', '--help'], env);
    assert.match(r.stdout, `bbdc auth: ${title.toUpperCase()}`);
    assert.not.match(r.stderr, /V8 code cache for CommonJS .*bbdc-auth\.cjs was accepted/);
  } finally {
    writeFileSync(bundle, text);
  }
});

test('--jq runs from the npm package (jq is bundled with the packages script)', async () => {
  const r = await run(launcher(), ['repo', 'list', '--limit', '3', '--json', '--jq', '.data | length']);
  assert.is(r.stdout, '3\n', r.stderr);
  assert.is(r.status, 0);
});

test('NODE_OPTIONS=--jitless runs a 5,000-item list from the npm package', async () => {
  // V8 flags switched at run time (--turbofan set back after a list) crashed such a Node (SIGSEGV) once the list ended.
  const jitless = { NODE_OPTIONS: '--jitless' };
  const human = await run(launcher(), ['repo', 'list', '--limit', '5000'], jitless);
  assert.is(human.status, 0, human.stderr);
  assert.is(human.stdout.trimEnd().split('\n').length, 5000);
  const json = await run(launcher(), ['repo', 'list', '--limit', '5000', '--json'], jitless);
  assert.is(json.status, 0, json.stderr);
  assert.is(JSON.parse(json.stdout).data.count, 5000);
});

test("a group's bundle holds its own commands only; groups whose commands load every command run the whole", () => {
  const files = readdirSync(npm);
  for (const f of [
    'main.cjs',
    'bbdc.cjs',
    'bbdc-packages.cjs',
    'bbdc-pr.cjs',
    'bbdc-repo.cjs',
    'bbdc-auth.cjs',
  ])
    assert.ok(files.includes(f), f);
  // ai mcp serve's tools and the completion scripts are made from every command.
  for (const f of ['bbdc-ai.cjs', 'bbdc-completion.cjs']) assert.not.ok(files.includes(f), f);
  const pr = readFileSync(join(npm, 'bbdc-pr.cjs'), 'utf8');
  assert.match(pr, 'src/bbdc/commands/pr/get.ts');
  assert.not.match(pr, 'src/bbdc/commands/auth/login.ts');
  assert.not.match(pr, 'node_modules/', 'the npm packages are in bbdc-packages.cjs');
  assert.match(readFileSync(join(npm, 'bbdc.cjs'), 'utf8'), 'src/bbdc/commands/auth/login.ts');
});

test('pr get from the npm package runs its group bundle without TLS, child_process, readline or the packages', async () => {
  const probe = join(dir, 'probe.cjs');
  writeFileSync(
    probe,
    `process.on('exit', () => process.stderr.write(JSON.stringify({ builtins: process.moduleLoadList, files: Object.keys(require.cache) })));\n`,
  );
  const r = await run(launcher(), ['pr', 'get', '1', '-R', 'PROJ/api', '--json'], {
    NODE_OPTIONS: `--require=${probe}`,
  });
  assert.is(r.status, 0, r.stderr);
  assert.is(JSON.parse(r.stdout).data.id, 1);
  const { builtins, files } = JSON.parse(r.stderr) as { builtins: string[]; files: string[] };
  assert.equal(files.filter((f) => f.startsWith(npm)).sort(), [
    join(npm, 'bbdc-pr.cjs'),
    join(npm, 'main.cjs'),
  ]);
  const loaded = builtins.join('\n');
  assert.match(loaded, 'NativeModule http', 'the probe sees loaded built-ins');
  for (const name of [
    'child_process',
    'worker_threads',
    'readline',
    'internal/fs/streams',
    'NativeModule tls',
  ])
    assert.not.match(loaded, name, `pr get loads ${name}`);
});

test.run();
