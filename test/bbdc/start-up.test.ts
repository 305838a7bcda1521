// How bbdc starts: the module compile cache under the user's cache directory, and the checkout's bundle, which runs
// only while fresh and loads neither the TypeScript stripper nor modules the command does not use.
import { spawn, spawnSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { compileCacheDir, freshBundle } from '../../bin/start-up.js';
import { bundleForCheckout } from '../../scripts/release/bundle.ts';
import { credentials } from '../fake-bitbucket/state.ts';
import { checkoutFlags } from './helpers/checkout-flags.ts';
import { withFake } from './helpers/fake.ts';

const test = suite('bbdc start-up');
const root = join(import.meta.dirname, '..', '..');

test('the compile cache lives in the user cache directory, or where NODE_COMPILE_CACHE says', () => {
  const cases: [Record<string, string>, string, string][] = [
    [{}, 'linux', '/home/u/.cache/bbdc/compile-cache'],
    [{ XDG_CACHE_HOME: '/xdg' }, 'linux', '/xdg/bbdc/compile-cache'],
    [{ XDG_CACHE_HOME: '' }, 'linux', '/home/u/.cache/bbdc/compile-cache'],
    [{}, 'darwin', '/home/u/Library/Caches/bbdc/compile-cache'],
    [
      { LOCALAPPDATA: 'C:\\Users\\u\\AppData\\Local' },
      'win32',
      'C:\\Users\\u\\AppData\\Local\\bbdc\\compile-cache',
    ],
    [{ NODE_COMPILE_CACHE: '/elsewhere', XDG_CACHE_HOME: '/xdg' }, 'linux', '/elsewhere'],
  ];
  for (const [env, platform, want] of cases)
    assert.is(compileCacheDir(env, '/home/u', platform), want, `${platform} ${JSON.stringify(env)}`);
});

test('bin/bbdc.js fills the compile cache under $XDG_CACHE_HOME/bbdc', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bbdc-cache-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    XDG_CACHE_HOME: dir,
    HOME: dir,
    BBDC_CONFIG_DIR: join(dir, 'config'),
    // The sources: a fresh checkout bundle keeps its own cache beside Node's (run-bundle.test.ts).
    BBDC_CHECKOUT_BUNDLE: '0',
  };
  delete env.NODE_COMPILE_CACHE;
  const r = spawnSync(process.execPath, [join(root, 'bin', 'bbdc.js'), 'pr', 'lst'], {
    env,
    encoding: 'utf8',
  });
  assert.is(r.status, 2, r.stderr);
  const cache = join(dir, 'bbdc', 'compile-cache');
  const [versionDir] = readdirSync(cache);
  assert.ok(versionDir?.startsWith(`v${process.versions.node}`), `a per-Node-version directory in ${cache}`);
  assert.ok(readdirSync(join(cache, versionDir)).length > 0, 'compiled modules were cached');
  rmSync(dir, { recursive: true, force: true });
});

test('the bins start without env -S: realmforge through env, bbdc through /bin/sh', () => {
  // `env -S` is GNU and BSD only: BusyBox's env (Alpine, node:*-alpine images) answers "unrecognized option: S" and
  // the command never starts. The npm package's bin gets `#!/usr/bin/env node` from bundle.ts (release-build checks
  // it): npm's Windows shims run what that line names.
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { bin: Record<string, string> };
  const first = (file: string) => readFileSync(join(root, file), 'utf8').split('\n')[0];
  assert.is(first(pkg.bin.realmforge), '#!/usr/bin/env node');
  assert.is(first(pkg.bin.bbdc), '#!/bin/sh');
});

test('bin/bbdc.js run through its first line gets its V8 flags; run by node, none', () => {
  assert.equal(checkoutFlags(), ['--min-semi-space-size=2', '--max-semi-space-size=2']);
  const dir = mkdtempSync(join(tmpdir(), 'bbdc-flags-'));
  const probe = join(dir, 'probe.cjs');
  writeFileSync(probe, "process.on('exit', () => process.stderr.write(JSON.stringify(process.execArgv)));\n");
  const env = {
    ...process.env,
    PATH: `${dirname(process.execPath)}:${process.env.PATH}`,
    NODE_OPTIONS: `--require=${probe}`,
  };
  // As a user runs it: the kernel reads `#!/bin/sh`, sh execs node from PATH on the file with the flags.
  const shebang = spawnSync(join(root, 'bin', 'bbdc.js'), ['--version'], { encoding: 'utf8', env });
  assert.is(shebang.status, 0, shebang.stderr);
  assert.equal(JSON.parse(shebang.stderr), checkoutFlags());
  assert.is(shebang.stdout, `bbdc ${JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version}\n`);
  // Arguments reach bbdc as given, spaces and quotes included (sh's "$@").
  const args = spawnSync(join(root, 'bin', 'bbdc.js'), ['pr', 'get', '1', "it's a b"], {
    encoding: 'utf8',
    env,
  });
  assert.is(args.status, 2, args.stderr);
  assert.match(args.stderr, 'unexpected argument "it\'s a b"');
  // The second line is JavaScript too: node runs the file as it is (as on Windows, where no shebang is read).
  const direct = spawnSync(process.execPath, [join(root, 'bin', 'bbdc.js'), '--version'], {
    encoding: 'utf8',
    env,
  });
  assert.is(direct.status, 0, direct.stderr);
  assert.equal(JSON.parse(direct.stderr), []);
  rmSync(dir, { recursive: true, force: true });
});

/** Runs bin/bbdc.js with `args` and a CommonJS probe (`--require`) that writes `expression` as JSON to stderr at exit. */
function withExitProbe(args: string[], expression: string) {
  const dir = mkdtempSync(join(tmpdir(), 'bbdc-entry-'));
  const probe = join(dir, 'probe.cjs');
  writeFileSync(probe, `process.on('exit', () => process.stderr.write(JSON.stringify(${expression})));\n`);
  const r = spawnSync(process.execPath, [join(root, 'bin', 'bbdc.js'), ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_OPTIONS: `--require=${probe}` },
  });
  rmSync(dir, { recursive: true, force: true });
  return { status: r.status, stderr: r.stderr, probed: JSON.parse(r.stderr.slice(r.stderr.indexOf('['))) };
}

test('bin/bbdc.js reads node:fs without loading its streams (an ES import of node:fs would)', () => {
  const r = withExitProbe(['--version'], 'process.moduleLoadList');
  assert.is(r.status, 0, r.stderr);
  const loaded = (r.probed as string[]).join('\n');
  assert.match(loaded, 'NativeModule fs', 'the probe sees loaded built-ins');
  for (const unwanted of ['internal/fs/streams', 'internal/fs/promises', 'readline'])
    assert.not.match(loaded, unwanted, `bbdc --version loads ${unwanted}`);
});

test('bin/bbdc.js and its one helper module load as CommonJS, not through the ES module loader', () => {
  // An ES module entry starts Node's ES module loader (an empty .mjs runs about 10 million instructions more than an
  // empty .cjs) and links each import through it; CommonJS modules are what require.cache holds.
  const r = withExitProbe(['pr', 'lst'], 'Object.keys(require.cache)');
  assert.is(r.status, 2, r.stderr);
  // Each further module costs a resolution and a compile at every start: bin/bbdc.js has one.
  const bin = (r.probed as string[]).filter((f) => f.startsWith(join(root, 'bin'))).sort();
  assert.equal(bin, [join(root, 'bin', 'bbdc.js'), join(root, 'bin', 'start-up.js')]);
});

test('a bundle is fresh only while every input keeps its size and is not newer than the bundle', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bbdc-fresh-'));
  mkdirSync(join(dir, 'src'));
  mkdirSync(join(dir, 'out'));
  writeFileSync(join(dir, 'src', 'a.ts'), 'export const a = 1;\n');
  writeFileSync(join(dir, 'out', 'b.cjs'), '');
  const list = { bundle: 'b.cjs', inputs: [['src/a.ts', 20]] };
  writeFileSync(join(dir, 'out', 'inputs.json'), JSON.stringify(list));
  const past = new Date(Date.now() - 60_000);
  utimesSync(join(dir, 'src', 'a.ts'), past, past);
  const out = join(dir, 'out');
  assert.is(freshBundle(dir, out), join(out, 'b.cjs'));
  utimesSync(join(dir, 'src', 'a.ts'), new Date(), new Date(Date.now() + 60_000));
  assert.is(freshBundle(dir, out), undefined, 'an input edited after the build');
  utimesSync(join(dir, 'src', 'a.ts'), past, past);
  writeFileSync(join(dir, 'src', 'a.ts'), 'export const a = 22;\n');
  utimesSync(join(dir, 'src', 'a.ts'), past, past);
  assert.is(freshBundle(dir, out), undefined, 'an input whose size changed (mtime kept)');
  rmSync(join(dir, 'src', 'a.ts'));
  assert.is(freshBundle(dir, out), undefined, 'an input that is gone');
  rmSync(join(out, 'inputs.json'));
  assert.is(freshBundle(dir, out), undefined, 'no input list');
  rmSync(dir, { recursive: true, force: true });
});

/** A checkout in miniature: `src/<file>` for each of `files`, written a minute ago, and an empty `out/`. */
function miniCheckout(files: string[]) {
  const dir = mkdtempSync(join(tmpdir(), 'bbdc-fresh-'));
  const out = join(dir, 'out');
  mkdirSync(join(dir, 'src'));
  mkdirSync(out);
  const past = new Date(Date.now() - 60_000);
  for (const f of files) {
    writeFileSync(join(dir, 'src', f), 'export {};\n');
    utimesSync(join(dir, 'src', f), past, past);
  }
  return { dir, out, past };
}

test("a command's bundle is the one its list names, fresh by the inputs that command can run", () => {
  const { dir, out } = miniCheckout(['main.ts', 'get.ts', 'create.ts']);
  writeFileSync(join(out, 'all.cjs'), '');
  writeFileSync(join(out, 'pr.cjs'), '');
  const list = (bundle: string, files: string[]) =>
    JSON.stringify({ bundle, inputs: files.map((f) => [`src/${f}`, 11]) });
  writeFileSync(join(out, 'inputs.json'), list('all.cjs', ['main.ts', 'get.ts', 'create.ts']));
  writeFileSync(join(out, 'inputs.pr.get.json'), list('pr.cjs', ['main.ts', 'get.ts']));
  writeFileSync(join(out, 'inputs.pr.create.json'), list('pr.cjs', ['main.ts', 'create.ts']));
  const touch = (f: string) => utimesSync(join(dir, 'src', f), new Date(), new Date(Date.now() + 60_000));
  assert.is(freshBundle(dir, out, 'pr get'), join(out, 'pr.cjs'));
  assert.is(
    freshBundle(dir, out, 'pr get main'),
    join(out, 'all.cjs'),
    'words that name no list (commandOf finds them)',
  );
  assert.is(
    freshBundle(dir, out, 'repo list'),
    join(out, 'all.cjs'),
    'a command without a list: the whole bundle',
  );
  assert.is(freshBundle(dir, out), join(out, 'all.cjs'), 'no command');
  for (const words of ['pr.get', '../out/inputs.pr get', 'PR get'])
    assert.is(
      freshBundle(dir, out, words),
      join(out, 'all.cjs'),
      `"${words}" names no list: only [a-z-] words do`,
    );
  touch('create.ts');
  assert.is(freshBundle(dir, out, 'pr get'), join(out, 'pr.cjs'), "pr create's edit: pr get is fresh");
  assert.is(freshBundle(dir, out, 'pr create'), undefined, "pr create's own edit");
  assert.is(freshBundle(dir, out, 'repo list'), undefined, 'the whole bundle is stale');
  touch('main.ts');
  assert.is(freshBundle(dir, out, 'pr get'), undefined, 'a shared input edited');
  rmSync(dir, { recursive: true, force: true });
});

test('the checkout bundle runs pr get without the TypeScript stripper, child_process or worker_threads', async () => {
  const fake = await withFake();
  // Inside the checkout, so that the bundle finds the npm packages in node_modules, as dist/bbdc does.
  mkdirSync(join(root, '.tmp'), { recursive: true });
  const out = mkdtempSync(join(root, '.tmp', 'bundle-'));
  try {
    const whole = await bundleForCheckout(out);
    // pr get's list names pr get's own bundle, which bin/bbdc.js runs for pr get: without the other commands, smaller.
    type List = { bundle: string; inputs: [string, number][] };
    const read = (name: string): List => JSON.parse(readFileSync(join(out, name), 'utf8'));
    const list = read('inputs.json');
    const get = read('inputs.pr.get.json');
    assert.is(get.bundle, 'bbdc.pr.get.cjs');
    assert.is(
      read('inputs.pr.create.json').bundle,
      'bbdc.pr.create.cjs',
      'pr create has a bundle of its own',
    );
    const bundle = join(out, get.bundle);
    const own = get.inputs.map(([f]) => f);
    // pr get's own inputs: main.ts's and its module's, not pr create's, nor another group's.
    for (const f of ['src/bbdc/main.ts', 'src/bbdc/cli/run.ts', 'src/bbdc/commands/pr/get.ts'])
      assert.ok(own.includes(f), `pr get's inputs list ${f}`);
    for (const f of ['src/bbdc/commands/pr/create.ts', 'src/bbdc/commands/auth/login.ts'])
      assert.not.ok(own.includes(f), `${f} is not pr get's input`);
    assert.ok(
      list.inputs.some(([f]) => f === 'src/bbdc/commands/auth/login.ts'),
      'the whole bundle has every command',
    );
    for (const [f, size] of get.inputs) assert.is(statSync(join(root, f)).size, size, f);
    assert.ok(statSync(bundle).size < statSync(whole).size * 0.2, `${statSync(bundle).size} bytes`);
    assert.not.match(readFileSync(bundle, 'latin1'), 'src/bbdc/commands/pr/create.ts', "pr create's code");
    // ai mcp serve's tools load every command: it runs the whole bundle.
    assert.not.ok(readdirSync(out).includes('inputs.ai.mcp.serve.json'));
    assert.ok(
      readdirSync(out).includes('inputs.ai.skill.remove.json'),
      'the other ai commands have their own',
    );
    // bin/start-up.js runs it as a vm.Script, where an import() (ai mcp serve's SDK) would throw.
    for (const b of [whole, bundle])
      assert.not.match(readFileSync(b, 'utf8'), /\bimport\(/, 'the bundle has no dynamic import()');
    // As bin/bbdc.js runs it (without a code cache here).
    const probe = `require(${JSON.stringify(join(root, 'bin', 'start-up.js'))})
      .runBundle(${JSON.stringify(bundle)}, undefined, 'pr get').exports.main(process.argv.slice(1)).then((code) => {
      process.exitCode = code;
      process.stderr.write(JSON.stringify(process.moduleLoadList));
    });`;
    // Not spawnSync: the fake answers from this process's event loop. Stdin is /dev/null, as in a script or CI.
    const child = spawn(process.execPath, ['-e', probe, 'pr', 'get', '1', '-R', 'PROJ/api', '--json'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        BBDC_URL: fake.url,
        BBDC_TOKEN: credentials.alice.token,
        BBDC_CONFIG_DIR: join(out, 'config'),
      },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const status = await new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? 1)));
    const r = { status, stdout, stderr };
    assert.is(r.status, 0, r.stderr);
    assert.is(JSON.parse(r.stdout).data.id, 1);
    const loaded = (JSON.parse(r.stderr) as string[]).join('\n');
    assert.match(loaded, 'NativeModule http', 'the probe sees loaded built-ins');
    // fs streams, fs/promises and readline: what reading process.stdin (a file or /dev/null) loads.
    // TLS, crypto and undici: an http:// server needs none of them. node:util's parseArgs, node:os and node:sea: their
    // functions compile at every start, and bbdc has what it needs of them in its own code (parse-flags.ts,
    // default-deps.ts).
    const unwanted = [
      'amaro',
      'child_process',
      'worker_threads',
      'readline',
      'internal/fs/streams',
      'parse_args',
    ];
    for (const name of [...unwanted, 'internal/fs/promises', 'NativeModule tls', 'internal/crypto', 'undici'])
      assert.not.match(loaded, name, `pr get loads ${name}`);
    // node:tty: only a command that asks whether stdin is a terminal (a prompt) loads it when stdout is not one.
    for (const name of ['os', 'sea', 'tty'])
      assert.not.ok(loaded.split('\n').includes(`NativeModule ${name}`), `pr get loads node:${name}`);
  } finally {
    rmSync(out, { recursive: true, force: true });
    await fake.stop();
  }
});

test('a list keeps the young generation at its size, and the code cache written at its end serves the next run', async () => {
  const fake = await withFake('large');
  // Inside the checkout, so that the bundle finds the npm packages in node_modules, as dist/bbdc does.
  mkdirSync(join(root, '.tmp'), { recursive: true });
  const dir = mkdtempSync(join(root, '.tmp', 'bbdc-list-'));
  // The young generation's size at exit (api/page-memory.ts holds it while a list streams).
  const probe = join(dir, 'probe.mjs');
  writeFileSync(
    probe,
    `process.on('exit', () => {
  const young = process.getBuiltinModule('node:v8').getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
  process.stderr.write('young ' + (young.space_size >> 20) + '\\n');
});
`,
  );
  // The bundle as bin/bbdc.js runs it, with bbdc's own code cache (bin/start-up.js runBundle), saved at exit.
  const bundle = await bundleForCheckout(join(dir, 'bundle'));
  const runner = `import { runBundle } from ${JSON.stringify(pathToFileURL(join(root, 'bin', 'start-up.js')).href)};
const [command, ...args] = process.argv.slice(1);
const loaded = runBundle(${JSON.stringify(bundle)}, ${JSON.stringify(join(dir, 'cache'))}, command);
process.once('exit', () => { loaded.save(); process.stderr.write('cache ' + loaded.cache + '\\n'); });
process.exitCode = await loaded.exports.main(args);`;
  const run = async (argv: string[]) => {
    // Not spawnSync: the fake answers from this process's event loop.
    const child = spawn(process.execPath, ['--input-type=module', '-e', runner, ...argv], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        NODE_OPTIONS: `--import=${pathToFileURL(probe).href}`,
        BBDC_URL: fake.url,
        BBDC_TOKEN: credentials.alice.token,
        BBDC_CONFIG_DIR: join(dir, 'config'),
      },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const status = await new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? 1)));
    assert.is(status, 0, stderr);
    return { data: JSON.parse(stdout).data, stderr };
  };
  try {
    const list = await run(['repo list', 'repo', 'list', '--limit', '3000', '--json']);
    assert.is(list.data.count, 3000);
    // V8 would grow the young generation to 16 MB during the list; held, it keeps its start-up size (4 MB here).
    const young = Number(/^young (\d+)$/m.exec(list.stderr)?.[1]);
    assert.ok(young <= 8, `young generation ${young} MB after the list`);
    // V8 refuses a code cache made under other flags: the list's, made after its flags were set back, is accepted.
    const next = await run(['repo list', 'repo', 'list', '--limit', '5', '--json']);
    assert.is(next.data.count, 5);
    assert.match(next.stderr, /^cache accepted$/m);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await fake.stop();
  }
});

test.run();
