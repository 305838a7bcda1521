// The checkout bundle's own code cache: written at the end of a run with the functions the command compiled, one for
// each command, kept while V8 accepts it, replaced when V8 refuses it, pruned when the bundle changes.
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { commandOf, commandWords, maxCachedCommands } from '../../bin/start-up.js';
import { cliV8Flags } from '../../scripts/release/sea.ts';
import { checkoutFlags } from './helpers/checkout-flags.ts';

const module = pathToFileURL(join(import.meta.dirname, '..', '..', 'bin', 'start-up.js')).href;

/**
 * One bbdc run in a process of its own (V8 keeps what a process compiled, so a second compile in the same process
 * would not read the cache at all): loads the bundle, calls its main, saves at the end as bin/bbdc.js does.
 */
function runBundle(bundle: string, cacheDir: string, command: string, nodeFlags: string[] = []) {
  const code = `import(${JSON.stringify(module)}).then(({ runBundle }) => {
    const r = runBundle(...JSON.parse(process.argv[1]));
    process.stdout.write(JSON.stringify({ cache: r.cache, main: r.exports.main(), dir: r.exports.dir, saved: r.save() }));
  });`;
  const args = [...nodeFlags, '-e', code, JSON.stringify([bundle, cacheDir, command])];
  const r = spawnSync(process.execPath, args, { encoding: 'utf8' });
  assert.is(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as { cache: string; main: number; dir: string; saved: boolean };
}

const test = suite('bbdc checkout bundle code cache');

function fixture() {
  const dir = mkdtempSync(join(tmpdir(), 'bbdc-run-bundle-'));
  const bundle = join(dir, 'b.cjs');
  // A bundle in miniature (bundle.ts scriptOptions): a function of require, __filename and __dirname that returns
  // its exports.
  writeFileSync(
    bundle,
    "(function (require, __filename, __dirname) {\n'use strict';\nconst { sep } = require('node:path');\nfunction add(a, b) { return a + b; }\nreturn { main: () => add(40, 2), dir: __dirname, sep };\n})\n",
  );
  return { dir, bundle, cache: join(dir, 'cache') };
}

test('the first run compiles without a cache and writes one; the next run has V8 accept it', () => {
  const { dir, bundle, cache } = fixture();
  const first = runBundle(bundle, cache, 'pr get');
  assert.is(first.cache, 'none');
  assert.is(first.main, 42);
  assert.is(first.dir, dir);
  assert.ok(first.saved, 'written');
  const files = readdirSync(cache).sort();
  assert.is(files.length, 1, files.join(' '));
  assert.ok(files[0].startsWith(`b.cjs-${process.version}-${process.arch}-`), files[0]);
  const second = runBundle(bundle, cache, 'pr get');
  assert.is(second.cache, 'accepted');
  assert.is(second.main, 42);
  assert.is(second.saved, false, 'a command already in the cache writes nothing');
  rmSync(dir, { recursive: true, force: true });
});

test("a cache written under bbdc's V8 flags is accepted without them, and the other way", () => {
  // bin/bbdc.js through its first line runs node with its flags, `node bin/bbdc.js` without, and the executables
  // read a cache made at build time without theirs: V8 refuses a cache made under other flags (most flags enter its
  // hash), which would make the two ways of starting the checkout rewrite each other's cache at every run, and the
  // executables compile everything. The semi-space sizes do not enter it.
  for (const [write, read] of [
    [checkoutFlags(), []],
    [[], checkoutFlags()],
    [[], cliV8Flags],
  ]) {
    const { dir, bundle, cache } = fixture();
    assert.is(runBundle(bundle, cache, 'pr get', write).cache, 'none');
    assert.is(
      runBundle(bundle, cache, 'pr get', read).cache,
      'accepted',
      `written with [${write}], read with [${read}]`,
    );
    rmSync(dir, { recursive: true, force: true });
  }
  // And the check can fail: a flag that enters the hash is refused.
  const { dir, bundle, cache } = fixture();
  runBundle(bundle, cache, 'pr get');
  assert.is(runBundle(bundle, cache, 'pr get', ['--no-sparkplug']).cache, 'rejected');
  rmSync(dir, { recursive: true, force: true });
});

test("the bundle's text is kept outside V8's heap, not copied into it", () => {
  const { dir, bundle, cache } = fixture();
  // 4 MB of text. Joined to a wrapper as strings, V8 held two copies in its large-object spaces (the read one garbage
  // until a full collection); read as latin1, a bundle that is its own wrapper, Node hands V8 an external string.
  writeFileSync(bundle, `(function () { return { main: () => 42 }; })\n//${'x'.repeat(4 << 20)}\n`);
  const code = `import(${JSON.stringify(module)}).then(({ runBundle }) => {
    const large = () => process.getBuiltinModule('node:v8').getHeapSpaceStatistics()
      .filter((s) => s.space_name.endsWith('large_object_space')).reduce((n, s) => n + s.space_used_size, 0);
    const before = large();
    runBundle(...JSON.parse(process.argv[1]));
    process.stdout.write(String((large() - before) / (4 << 20)));
  });`;
  const r = spawnSync(process.execPath, ['-e', code, JSON.stringify([bundle, cache, 'pr get'])], {
    encoding: 'utf8',
  });
  assert.is(r.status, 0, r.stderr);
  assert.ok(Number(r.stdout) < 0.5, `${r.stdout} copies of the bundle text in V8's large-object spaces`);
  rmSync(dir, { recursive: true, force: true });
});

test('each command gets a cache of its own, which only it reads; past the limit the oldest written makes room', () => {
  const { dir, bundle, cache } = fixture();
  runBundle(bundle, cache, 'pr get');
  const prGet = readdirSync(cache);
  assert.is(prGet.length, 1);
  assert.ok(prGet[0].endsWith('.pr-get.cache'), prGet[0]);
  const size = statSync(join(cache, prGet[0])).size;
  assert.is(runBundle(bundle, cache, 'repo list').cache, 'none', "pr get's cache is not repo list's");
  assert.is(runBundle(bundle, cache, 'repo list').cache, 'accepted');
  assert.is(statSync(join(cache, prGet[0])).size, size, "pr get's cache is left as it was");
  // Filled up to the limit by hand (a process per command would be slow), another bundle's caches among them, each
  // written later than the one before: the files are what decides.
  const names = [prGet[0], ...readdirSync(cache).filter((f) => f !== prGet[0])];
  for (let i = names.length; i < maxCachedCommands; i++)
    names.push(i % 2 ? prGet[0].replace('pr-get', `c${i}`) : `other.cjs-${i}.c${i}.cache`);
  names.forEach((f, i) => {
    if (!existsSync(join(cache, f))) writeFileSync(join(cache, f), '');
    utimesSync(join(cache, f), new Date(), new Date(Date.now() - (maxCachedCommands - i) * 60_000));
  });
  assert.is(readdirSync(cache).length, maxCachedCommands);
  assert.ok(runBundle(bundle, cache, 'one more').saved, 'written past the limit');
  const left = readdirSync(cache);
  assert.is(left.length, maxCachedCommands, 'the directory stays at the limit');
  assert.not.ok(left.includes(prGet[0]), 'the oldest written made room');
  assert.ok(left.includes(names[1]), 'the next oldest is kept');
  assert.is(runBundle(bundle, cache, 'one more').cache, 'accepted');
  assert.is(runBundle(bundle, cache, 'repo list').cache, 'accepted', 'the others still serve');
  assert.is(runBundle(bundle, cache, 'pr get').cache, 'none', 'pr get writes its cache again when next run');
  rmSync(dir, { recursive: true, force: true });
});

test('a damaged cache is refused by V8, the bundle still runs, and the cache is written again', () => {
  const { dir, bundle, cache } = fixture();
  runBundle(bundle, cache, 'pr get');
  const file = join(cache, readdirSync(cache).find((f) => f.endsWith('.cache'))!);
  writeFileSync(file, Buffer.alloc(statSync(file).size, 7));
  const run = runBundle(bundle, cache, 'pr get');
  assert.is(run.cache, 'rejected');
  assert.is(run.main, 42);
  assert.ok(run.saved);
  assert.is(runBundle(bundle, cache, 'pr get').cache, 'accepted');
  rmSync(dir, { recursive: true, force: true });
});

test("a rebuilt bundle gets a cache of its own, and the old build's files are removed", () => {
  const { dir, bundle, cache } = fixture();
  runBundle(bundle, cache, 'pr get');
  const before = readdirSync(cache);
  writeFileSync(bundle, `${readFileSync(bundle, 'utf8')}// rebuilt\n`);
  utimesSync(bundle, new Date(), new Date(Date.now() + 5000));
  assert.is(runBundle(bundle, cache, 'pr get').cache, 'none');
  const after = readdirSync(cache);
  assert.is(after.length, 1);
  for (const f of before) assert.not.ok(after.includes(f), `${f} pruned`);
  rmSync(dir, { recursive: true, force: true });
});

test("two bundles' caches share a directory: a rebuilt one removes only its own", () => {
  const { dir, bundle, cache } = fixture();
  const other = join(dir, 'other.cjs');
  writeFileSync(other, readFileSync(bundle, 'utf8').replace('40', '39'));
  runBundle(bundle, cache, 'pr get');
  runBundle(other, cache, 'repo list');
  assert.is(readdirSync(cache).length, 2);
  writeFileSync(bundle, `${readFileSync(bundle, 'utf8')}// rebuilt\n`);
  utimesSync(bundle, new Date(), new Date(Date.now() + 5000));
  assert.is(runBundle(bundle, cache, 'pr get').cache, 'none');
  assert.is(runBundle(other, cache, 'repo list').cache, 'accepted', "the other bundle's cache is kept");
  assert.is(readdirSync(cache).length, 2, "the rebuilt bundle's old cache is gone");
  rmSync(dir, { recursive: true, force: true });
});

test('files of an older layout of the directory, which name no script, are removed when a cache is written', () => {
  const { dir, bundle, cache } = fixture();
  runBundle(bundle, cache, 'repo list');
  // The checkout's whole-bundle cache and the one-script executable's, as earlier versions named them.
  const old = ['v24.21.0-x64-1092156-1795797612699.cache', 'v24.21.0-x64-1092156-1795797612699.json'];
  old.push('0.1.0-v24.21.0-x64-2912345.pr-get.cache');
  for (const f of old) writeFileSync(join(cache, f), 'old');
  assert.ok(runBundle(bundle, cache, 'pr get').saved);
  const left = readdirSync(cache).sort();
  assert.is(left.length, 2, left.join(' '));
  assert.match(left[0], /^b\.cjs-.*\.pr-get\.cache$/);
  assert.match(left[1], /^b\.cjs-.*\.repo-list\.cache$/);
  rmSync(dir, { recursive: true, force: true });
});

test('a cache directory that cannot be written costs nothing but the cache', () => {
  const { dir, bundle } = fixture();
  writeFileSync(join(dir, 'file'), '');
  const run = runBundle(bundle, join(dir, 'file', 'cache'), 'pr get');
  assert.is(run.main, 42);
  assert.is(run.saved, false);
  rmSync(dir, { recursive: true, force: true });
});

test('a cache is written at exit only by a run that succeeded and printed no help', () => {
  const { dir, bundle, cache } = fixture();
  // As bin/bbdc.js and the launcher do: the run's cache saved at exit (start-up.js saveAtExit), here with the exit
  // code and the command line given.
  const run = (code: number, args: string[]) => {
    const r = spawnSync(
      process.execPath,
      [
        '-e',
        `import(${JSON.stringify(module)}).then(({ runBundle, saveAtExit }) => {
          const [bundle, cache, code, ...args] = process.argv.slice(1);
          saveAtExit(runBundle(bundle, cache, 'pr get').save, args);
          process.exitCode = Number(code);
        });`,
        bundle,
        cache,
        String(code),
        ...args,
      ],
      { encoding: 'utf8' },
    );
    assert.is(r.status, code, r.stderr);
    return existsSync(cache) ? readdirSync(cache) : [];
  };
  assert.equal(run(1, ['pr', 'get', '1']), [], 'a failed run');
  assert.equal(run(2, ['pr', 'get', '--jsn']), [], 'a mistyped flag');
  assert.equal(run(0, ['pr', 'get', '--help']), [], 'help');
  assert.equal(run(0, ['pr', 'get', '-h']), [], 'help, short');
  assert.is(run(0, ['pr', 'get', '1']).length, 1, 'a run that succeeded');
  rmSync(dir, { recursive: true, force: true });
});

test('the command a cache entry is named by: the longest leading words that name a command, else those words', () => {
  const cases: [string[], string][] = [
    [['pr', 'get', '1', '--json'], 'pr get'],
    [['repo', 'list', '--limit', '5000'], 'repo list'],
    [['repo', 'clone', 'api'], 'repo clone'],
    [['repo', 'clone', 'web', 'here'], 'repo clone'],
    [['repo', 'settings', 'auto-merge', 'get', '-R', 'P/r'], 'repo settings auto-merge get'],
    [['auth', 'git-credential', 'get'], 'auth git-credential get'],
    [['pr'], 'pr'],
    [['pr', 'lst'], 'pr lst'],
    [['--json', 'pr', 'get'], ''],
    [[], ''],
  ];
  const commands = [
    'pr get',
    'repo list',
    'repo clone',
    'repo settings auto-merge get',
    'auth git-credential get',
  ];
  for (const [args, want] of cases)
    assert.is(
      commandOf(args, (c) => commands.includes(c)),
      want,
      args.join(' '),
    );
  assert.is(
    commandWords(['repo', 'settings', 'auto-merge', 'get', 'x']),
    'repo settings auto-merge get',
    'four words',
  );
});

test("the executable's build-time cache serves until the user's own is written, then the user's is read", () => {
  const dir = mkdtempSync(join(tmpdir(), 'bbdc-run-bundle-'));
  const cacheDir = join(dir, 'cache');
  // As the executable's launcher does: a function expression, the build's cache made right after compiling it.
  const code = `import(${JSON.stringify(module)}).then(({ compileCached }) => {
    const { Script } = require('node:vm');
    const source = '(function () { return 40 + 2; })';
    const fallback = new Script(source, { filename: 'x.cjs' }).createCachedData();
    const r = compileCached({ source, filename: 'x.cjs', key: 'k', cacheDir: process.argv[1], command: 'pr get', fallback });
    process.stdout.write(JSON.stringify({ cache: r.cache, value: r.script.runInThisContext()(), saved: r.save() }));
  });`;
  const run = () => {
    const r = spawnSync(process.execPath, ['-e', code, cacheDir], { encoding: 'utf8' });
    assert.is(r.status, 0, r.stderr);
    return JSON.parse(r.stdout) as { cache: string; value: number; saved: boolean };
  };
  assert.equal(
    run(),
    { cache: 'accepted', value: 42, saved: true },
    'the fallback is accepted; the own cache written',
  );
  assert.equal(readdirSync(cacheDir), ['k.pr-get.cache']);
  assert.equal(run(), { cache: 'accepted', value: 42, saved: false }, 'then the own cache is read');
  rmSync(dir, { recursive: true, force: true });
});

test.run();
