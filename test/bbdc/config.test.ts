import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { configDir, configFile, secretsFile } from '../../src/bbdc/config/paths.ts';
import { createSecretStore } from '../../src/bbdc/config/secret-store.ts';
import { defaultDeps } from '../../src/bbdc/default-deps.ts';
import { credentials } from '../fake-bitbucket/state.ts';
import { withFake } from './helpers/fake.ts';
import { createWorld, memoryKeyring, missingKeyring, repoWithRemotes } from './helpers/world.ts';

const test = suite('bbdc configuration');
let fake: Awaited<ReturnType<typeof withFake>>;
test.before(async () => {
  fake = await withFake();
});
test.after(async () => {
  await fake.stop();
});

function writeConfig(dir: string, config: string, secrets?: string) {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileSync(join(dir, 'config.yaml'), config, { mode: 0o600 });
  if (secrets) writeFileSync(join(dir, 'credentials.yaml'), secrets, { mode: 0o600 });
}

test('a bare host gets https://', async () => {
  const w = createWorld();
  const r = await w.run(['browse', '--no-browser', '-R', 'bitbucket.example.com/PROJ/api']);
  assert.is(r.stdout.trim(), 'https://bitbucket.example.com/projects/PROJ/repos/api/browse');
  const t = await w.run(['auth', 'token-url', '--host', 'Bitbucket.Example.com/']);
  assert.is(t.stdout.trim(), 'https://bitbucket.example.com/plugins/servlet/access-tokens/manage');
  const env = await w.run(['auth', 'token-url'], { env: { BBDC_URL: 'bb.example.org:8443' } });
  assert.is(env.stdout.trim(), 'https://bb.example.org:8443/plugins/servlet/access-tokens/manage');
  w.dispose();
});

test('a scheme is read in any case (HTTP://, Https://) in a host and in -R', async () => {
  const w = createWorld();
  const t = await w.run(['auth', 'token-url', '--host', 'HTTP://Bitbucket.Example.com:7990/']);
  assert.is(t.stdout.trim(), 'http://bitbucket.example.com:7990/plugins/servlet/access-tokens/manage');
  const r = await w.run(['browse', '--no-browser', '-R', 'Https://bitbucket.example.com/PROJ/api']);
  assert.is(r.stdout.trim(), 'https://bitbucket.example.com/projects/PROJ/repos/api/browse', r.stderr);
  w.dispose();
});

test('the config directory: BBDC_CONFIG_DIR, else XDG_CONFIG_HOME/bbdc, else ~/.config/bbdc; its files inside it', () => {
  assert.is(configDir({ BBDC_CONFIG_DIR: '/etc/bbdc', XDG_CONFIG_HOME: '/x' }, '/home/ann'), '/etc/bbdc');
  assert.is(configDir({ XDG_CONFIG_HOME: '/x' }, '/home/ann'), '/x/bbdc');
  assert.is(configDir({ XDG_CONFIG_HOME: '/x/' }, '/home/ann'), '/x/bbdc');
  assert.is(configDir({ XDG_CONFIG_HOME: '' }, '/home/ann'), '/home/ann/.config/bbdc');
  assert.is(configDir({}, '/'), '/.config/bbdc');
  assert.is(configFile('/etc/bbdc'), '/etc/bbdc/config.yaml');
  assert.is(configFile('/etc/bbdc/'), '/etc/bbdc/config.yaml');
  assert.is(secretsFile('/etc/bbdc'), '/etc/bbdc/credentials.yaml');
});

test('config directory is 0700 and config and secrets files are 0600', async () => {
  const w = createWorld({ keyring: missingKeyring });
  await w.run(['auth', 'login', fake.url, '--token', credentials.alice.token]);
  assert.is(statSync(w.configDir).mode & 0o777, 0o700);
  assert.is(statSync(join(w.configDir, 'config.yaml')).mode & 0o777, 0o600);
  assert.is(statSync(join(w.configDir, 'credentials.yaml')).mode & 0o777, 0o600);
  w.dispose();
});

test('credentials stored for https are used for the same host over http (and the other way round)', async () => {
  const w = createWorld();
  const https = fake.url.replace('http://', 'https://');
  writeConfig(
    w.configDir,
    `defaultHost: ${https}\nhosts:\n  - url: ${https}\n    username: alice\n    authMode: token\n    secretStorage: file\n`,
    `${https}: ${credentials.alice.token}\n`,
  );
  const r = await w.run(['auth', 'whoami', '--host', fake.url, '--json']);
  assert.is(r.code, 0, r.stderr);
  assert.is(r.json().data.username, 'alice');
  assert.is(r.json().data.host, fake.url, 'the request went to the URL asked for');
  w.dispose();
});

test('a host named by an alias uses that host URL and its credentials', async () => {
  const w = createWorld({ keyring: memoryKeyring() });
  await w.run(['auth', 'login', fake.url, '--token', credentials.bob.token]);
  const r = await w.run(['auth', 'whoami', '--host', 'git.example.test:7999', '--json']);
  assert.is(r.code, 0, r.stderr);
  assert.equal([r.json().data.host, r.json().data.username], [fake.url, 'bob']);
  w.dispose();
});

test('host precedence: --host over BBDC_URL over git remote over the default host', async () => {
  const w = createWorld({ keyring: memoryKeyring() });
  await w.run(['auth', 'login', fake.url, '--token', credentials.alice.token]);
  const cwd = repoWithRemotes(w.dir, 'p', { origin: 'https://git-host.example.test/scm/proj/api.git' });
  await w.run(['auth', 'alias', 'add', 'git-host.example.test']);
  const url = async (argv: string[], env = {}) =>
    (await w.run(['auth', 'token-url', ...argv], { cwd, env })).stdout.trim();
  const page = '/plugins/servlet/access-tokens/manage';
  assert.is(await url(['--host', 'flag.example.test']), `https://flag.example.test${page}`);
  assert.is(await url([], { BBDC_URL: 'env.example.test' }), `https://env.example.test${page}`);
  assert.is(
    await url([]),
    `${fake.url}/plugins/servlet/access-tokens/users/alice/manage`,
    'git remote matched by alias',
  );
  const outside = await w.run(['auth', 'token-url']);
  assert.is(
    outside.stdout.trim(),
    `${fake.url}/plugins/servlet/access-tokens/users/alice/manage`,
    'default host',
  );
  w.dispose();
});

test('BBDC_TOKEN and BBDC_USERNAME from the environment win over stored credentials', async () => {
  const w = createWorld({ keyring: memoryKeyring() });
  await w.run(['auth', 'login', fake.url, '--token', credentials.alice.token]);
  const r = await w.run(['auth', 'whoami', '--json'], { env: { BBDC_TOKEN: credentials.bob.token } });
  assert.is(r.json().data.username, 'bob');
  w.dispose();
});

test('a malformed config file is an error naming the file and line; nothing is overwritten', async () => {
  const w = createWorld({ keyring: memoryKeyring() });
  const broken =
    'defaultHost: https://a.example\nhosts:\n  - url: https://a.example\n    aliases: [unclosed\n';
  writeConfig(w.configDir, broken);
  const r = await w.run(['auth', 'login', fake.url, '--token', credentials.alice.token]);
  assert.is(r.code, 2);
  assert.match(r.stderr, `${join(w.configDir, 'config.yaml')}:`);
  assert.match(r.stderr, 'malformed YAML');
  assert.not.match(r.stderr, '    at ', 'no stack trace');
  assert.is(readFileSync(join(w.configDir, 'config.yaml'), 'utf8'), broken);
  const wrongField = 'hosts:\n  - url: https://a.example\n    authMode: oauth\n';
  writeConfig(w.configDir, wrongField);
  const s = await w.run(['auth', 'status']);
  assert.is(s.code, 2);
  assert.match(
    s.stderr,
    `${join(w.configDir, 'config.yaml')}:3: hosts.0.authMode: must be one of "token", "basic"`,
  );
  w.dispose();
});

test('the keyring is used when one is available, the file otherwise', async () => {
  const keyring = memoryKeyring();
  const withKeyring = createWorld({ keyring });
  const a = await withKeyring.run(['auth', 'login', fake.url, '--token', credentials.alice.token, '--json']);
  assert.is(a.json().data.secretStorage, 'keyring');
  assert.is(keyring.items.size, 1);
  withKeyring.dispose();
  const none = createWorld();
  const b = await none.run(['auth', 'login', fake.url, '--token', credentials.alice.token, '--json']);
  assert.is(b.json().data.secretStorage, 'file');
  assert.match(readFileSync(join(none.configDir, 'credentials.yaml'), 'utf8'), credentials.alice.token);
  none.dispose();
});

test('the real keyring package round-trips a secret, falling back to a 0600 file without a keyring service', async () => {
  const keyring = await defaultDeps().keyring();
  assert.ok(keyring, '@napi-rs/keyring loads on this platform');
  const w = createWorld();
  const file = join(w.configDir, 'credentials.yaml');
  const store = createSecretStore(keyring, file);
  const host = 'https://bbdc-keyring-test.invalid';
  const storage = await store.save(host, 'secret-value-123');
  assert.is(await store.load(host, storage), 'secret-value-123');
  if (storage === 'file') assert.is(statSync(file).mode & 0o777, 0o600);
  await store.remove(host, storage);
  assert.is(await store.load(host, storage), undefined);
  w.dispose();
});

test.run();
