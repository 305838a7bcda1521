import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { registry } from '../../src/bbdc/registry.ts';
import { credentials } from '../fake-bitbucket/state.ts';
import { withFake } from './helpers/fake.ts';
import { createWorld } from './helpers/world.ts';

const test = suite('bbdc entry point');
const root = join(import.meta.dirname, '..', '..');
const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;

function probe(...argv: string[]) {
  const res = spawnSync(process.execPath, [join(import.meta.dirname, 'fixtures', 'load-probe.ts'), ...argv], {
    encoding: 'utf8',
    env: { ...process.env, BBDC_CONFIG_DIR: '/nonexistent' },
  });
  return { code: res.status, stdout: res.stdout, loaded: res.stderr };
}

test('bin/bbdc.js --version prints the package version', () => {
  const res = spawnSync(process.execPath, [join(root, 'bin', 'bbdc.js'), '--version'], { encoding: 'utf8' });
  assert.match(
    res.stdout,
    new RegExp(`^bbdc ${version.replaceAll('.', '\\.')} \\(commit [0-9a-f]{40}, checkout `),
  );
  assert.is(res.status, 0);
});

test('--version names the commit a checkout runs, and the checkout', async () => {
  const w = createWorld();
  const r = await w.run(['--version']);
  w.dispose();
  const head = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8' }).stdout.trim();
  assert.match(head, /^[0-9a-f]{40}$/);
  assert.is(r.stdout, `bbdc ${version} (commit ${head}, checkout ${root})\n`);
});

test('--version and --help do not load the HTTP stack or command code they do not need', () => {
  const v = probe('--version');
  assert.match(v.stdout, `bbdc ${version} (commit `);
  assert.not.match(v.loaded, 'undici');
  assert.not.match(v.loaded, 'meow');
  const h = probe('--help');
  assert.is(h.code, 0);
  assert.match(h.stdout, 'auth:');
  assert.match(h.loaded, 'generated/bbdc/commands.json', 'the probe sees loaded modules');
  for (const heavy of [
    'undici',
    '/api/transport.ts',
    'src/bbdc/commands/',
    'ajv',
    'yaml',
    'meow',
    'cli/context.ts',
  ])
    assert.not.match(h.loaded, heavy, `--help loads ${heavy}`);
  const p = probe('pr', 'get', '1', '-R', 'PROJ/api', '--host', 'http://127.0.0.1:9', '--retry-count', '0');
  assert.match(p.loaded, 'commands/pr/get.ts');
  assert.not.match(p.loaded, 'commands/pr/list.ts', 'only the command that runs is imported');
  // Without a config file (BBDC_CONFIG_DIR points nowhere) no YAML code is needed either.
  for (const heavy of ['ajv', 'meow', 'yaml', 'undici', 'node:readline'])
    assert.not.match(p.loaded, heavy, `pr get loads ${heavy}`);
  assert.match(p.loaded, 'api/transport.ts', 'the request was made');
  const c = probe('auth', 'status', '--help');
  assert.not.match(c.loaded, 'undici');
  assert.not.match(c.loaded, 'commands/repo/list.ts', 'only the command asked for is loaded');
});

test('every registered command has help with its usage, flags and output schema', async () => {
  const w = createWorld();
  for (const entry of registry) {
    const command = await entry.load();
    assert.is(command.name, entry.name, 'registry name matches the definition');
    const r = await w.run([...entry.name.split(' '), '--help']);
    assert.is(r.code, 0);
    assert.match(r.stdout, `Usage: bbdc ${entry.name}`);
    // Named as published (its $id) and with the reference's URL: an installed bbdc has no schemas/ or docs/.
    assert.match(r.stdout, `https://realmforge.dev/schemas/cli/output/${command.outputSchema}.schema.json`);
    assert.match(r.stdout, `commands.md#bbdc-${command.name.replaceAll(' ', '-')}\n`);
    assert.not.match(r.stdout, /(^|\s)(docs|schemas)\//);
    assert.match(r.stdout, '--json');
  }
  const top = await w.run(['--help']);
  assert.match(
    top.stdout,
    'Full reference: https://github.com/realmforge/realmforge/blob/main/docs/commands.md\n',
  );
  assert.not.match(top.stdout, /(^|\s)(docs|schemas)\//);
  const group = await w.run(['auth', 'alias']);
  assert.match(group.stdout, 'auth alias discover');
  assert.not.match(group.stdout, 'repo list');
  w.dispose();
});

test('unknown commands and flags are usage errors (exit 2) naming them', async () => {
  const w = createWorld();
  const cmd = await w.run(['frobnicate']);
  assert.equal(
    [cmd.code, cmd.stderr],
    [2, 'error: unknown command "frobnicate"; run `bbdc --help` for the list\n'],
  );
  const flag = await w.run(['auth', 'status', '--frob', '--json']);
  assert.is(flag.code, 2);
  assert.equal(flag.json().error, {
    kind: 'usage',
    message: 'unknown flag --frob for bbdc auth status; run `bbdc auth status --help`',
    exitCode: 2,
  });
  const extra = await w.run(['auth', 'status', 'surplus']);
  assert.match(extra.stderr, 'unexpected argument "surplus"');
  const bad = await w.run(['auth', 'status', '--log-level', 'loud']);
  assert.match(bad.stderr, '--log-level "loud" must be one of error, warn, info, debug');
  const timeout = await w.run(['auth', 'status', '--request-timeout', 'soon']);
  assert.match(timeout.stderr, '--request-timeout "soon" is not a duration');
  w.dispose();
});

test('--insecure-skip-verify prints exactly one warning on stderr; BBDC_INSECURE_SKIP_VERIFY too', async () => {
  const fake = await withFake();
  const w = createWorld({ env: { BBDC_URL: fake.url, BBDC_TOKEN: credentials.alice.token } });
  const r = await w.run(['auth', 'whoami', '--insecure-skip-verify']);
  assert.is(r.code, 0, r.stderr);
  assert.is(r.stderr.match(/warning: --insecure-skip-verify/g)?.length, 1);
  const e = await w.run(['auth', 'whoami'], { env: { BBDC_INSECURE_SKIP_VERIFY: '1' } });
  assert.is(e.stderr.match(/warning/g)?.length, 1);
  const off = await w.run(['auth', 'whoami']);
  assert.is(off.stderr, '');
  w.dispose();
  await fake.stop();
});

test('--log-format json writes one JSON object per log line on stderr', async () => {
  const fake = await withFake();
  const w = createWorld({ env: { BBDC_URL: fake.url, BBDC_TOKEN: credentials.alice.token } });
  const r = await w.run(['repo', 'list', '--log-level', 'debug', '--log-format', 'json', '--json']);
  const lines = r.stderr
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.ok(lines.length > 0);
  assert.equal(Object.keys(lines[0]).slice(0, 3), ['time', 'level', 'message']);
  assert.is(lines[0].status, 200);
  const quiet = await w.run(['repo', 'list', '--json']);
  assert.is(quiet.stderr, '', 'default level logs nothing on success');
  w.dispose();
  await fake.stop();
});

test.run();
