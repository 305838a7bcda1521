import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { credentials } from '../fake-bitbucket/state.ts';
import { withFake } from './helpers/fake.ts';
import { createWorld, memoryKeyring, missingKeyring } from './helpers/world.ts';

const test = suite('bbdc auth');
let fake: Awaited<ReturnType<typeof withFake>>;
test.before(async () => {
  fake = await withFake();
});
test.after(async () => {
  await fake.stop();
});
const { alice, bob } = credentials;

test('login checks a token against the server, stores it in the keyring and makes the host the default', async () => {
  const keyring = memoryKeyring();
  const w = createWorld({ keyring });
  const r = await w.run(['auth', 'login', fake.url, '--token', alice.token, '--json']);
  assert.is(r.code, 0, r.stderr + r.stdout);
  const data = r.json().data;
  assert.equal(
    {
      host: data.host,
      username: data.username,
      authMode: data.authMode,
      secretStorage: data.secretStorage,
      default: data.default,
    },
    { host: fake.url, username: 'alice', authMode: 'token', secretStorage: 'keyring', default: true },
  );
  assert.equal(data.aliases, ['git.example.test:7999'], 'aliases discovered from clone links');
  assert.is(keyring.items.get(`bbdc/${fake.url}`), alice.token);
  const config = readFileSync(join(w.configDir, 'config.yaml'), 'utf8');
  assert.not.match(config, alice.token);
  const sent = fake.requests.find((q) => q.path === '/rest/api/latest/application-properties');
  assert.is(sent?.headers.authorization, `Bearer ${alice.token}`);
  w.dispose();
});

test('auth status exits 3 with nothing configured, 0 when the server accepts the token, 3 once it refuses it', async () => {
  const keyring = memoryKeyring();
  const w = createWorld({ keyring });
  const empty = await w.run(['auth', 'status']);
  assert.equal([empty.code, empty.stderr], [3, 'No servers configured. Run `bbdc auth login <host>`.\n']);
  await w.run(['auth', 'login', fake.url, '--token', alice.token]);
  const ok = await w.run(['auth', 'status', '--json']);
  assert.is(ok.code, 0, ok.stdout);
  assert.is(ok.json().data.hosts[0].check, 'ok');
  keyring.items.set(`bbdc/${fake.url}`, 'revoked-token-999');
  const refused = await w.run(['auth', 'status']);
  assert.is(refused.code, 3);
  assert.match(refused.stdout, 'refused');
  assert.match(refused.stderr, `${fake.url}: refused: `);
  assert.match(refused.stderr, 'Authentication failed');
  w.dispose();
});

test('login with a rejected token exits 3 with the server message and stores nothing', async () => {
  const w = createWorld({ keyring: memoryKeyring() });
  const r = await w.run(['auth', 'login', fake.url, '--token', 'wrong-token-123']);
  assert.is(r.code, 3);
  assert.match(r.stderr, 'Authentication failed. Please check your credentials');
  const status = await w.run(['auth', 'status', '--json']);
  assert.equal(status.json().data.hosts, []);
  w.dispose();
});

test('login with username and password uses basic auth; --no-discover-aliases skips discovery', async () => {
  const w = createWorld({ keyring: memoryKeyring() });
  const before = fake.requests.length;
  const r = await w.run([
    'auth',
    'login',
    fake.url,
    '--username',
    bob.username,
    '--password',
    bob.password,
    '--no-discover-aliases',
    '--json',
  ]);
  assert.is(r.code, 0, r.stderr);
  assert.is(r.json().data.authMode, 'basic');
  assert.equal(r.json().data.aliases, []);
  const sent = fake.requests.slice(before);
  assert.is(
    sent[0].headers.authorization,
    `Basic ${Buffer.from(`${bob.username}:${bob.password}`).toString('base64')}`,
  );
  assert.not.ok(
    sent.some((q) => q.path === '/rest/api/latest/repos'),
    'no discovery request',
  );
  w.dispose();
});

test('a token with a username sends Bearer; a mismatching username is refused', async () => {
  const w = createWorld({ keyring: memoryKeyring() });
  const ok = await w.run(['auth', 'login', fake.url, '--token', alice.token, '--username', 'alice']);
  assert.is(ok.code, 0, ok.stderr);
  const bad = await w.run(['auth', 'login', fake.url, '--token', alice.token, '--username', 'bob']);
  assert.is(bad.code, 3);
  assert.match(bad.stderr, 'belong to alice, not --username bob');
  w.dispose();
});

test('login prompts for the token on a terminal and refuses without one when not on a terminal', async () => {
  const tty = createWorld({ keyring: memoryKeyring(), stdinTTY: true, prompts: [alice.token] });
  const r = await tty.run(['auth', 'login', fake.url]);
  assert.is(r.code, 0, r.stderr);
  assert.match(tty.asked[0], 'Personal access token');
  assert.not.match(r.stdout + r.stderr, alice.token);
  tty.dispose();
  const piped = createWorld();
  const p = await piped.run(['auth', 'login', fake.url]);
  assert.is(p.code, 2);
  assert.match(p.stderr, 'pipe the token in with --with-token, or pass --token');
  const missing = await piped.run(['auth', 'login']);
  assert.is(missing.code, 2);
  assert.match(missing.stderr, 'missing argument <host>');
  piped.dispose();
});

test('login --with-token reads the token from standard input (first line, trimmed), as gh does', async () => {
  const w = createWorld({ keyring: memoryKeyring(), stdin: `${alice.token}\n` });
  const r = await w.run(['auth', 'login', fake.url, '--with-token', '--json']);
  assert.is(r.code, 0, r.stderr);
  assert.is(r.json().data.username, 'alice');
  assert.is((await w.run(['auth', 'status'])).code, 0);
  w.dispose();
  const empty = createWorld({ keyring: memoryKeyring(), stdin: '\n' });
  const e = await empty.run(['auth', 'login', fake.url, '--with-token']);
  assert.is(e.code, 2);
  assert.match(e.stderr, '--with-token read no token from standard input');
  const both = await empty.run(['auth', 'login', fake.url, '--with-token', '--token', alice.token]);
  assert.is(both.code, 2);
  assert.match(both.stderr, 'without --token or --password');
  assert.is((await empty.run(['auth', 'status'])).code, 3, 'nothing stored');
  empty.dispose();
});

test('--token and --password values work but warn that they sit in argv, naming --with-token; the value is never echoed', async () => {
  const w = createWorld({ keyring: memoryKeyring() });
  const r = await w.run(['auth', 'login', fake.url, '--token', alice.token, '--json']);
  assert.is(r.code, 0, r.stderr);
  assert.match(
    r.stderr,
    'warning: --token puts the secret in the command line, where ps and your shell history see it; pipe it in with --with-token',
  );
  const basic = await w.run(['auth', 'login', fake.url, '--username', 'alice', '--password', 'not-it']);
  assert.match(basic.stderr, 'warning: --password puts the secret in the command line');
  assert.match(basic.stderr, '--with-token');
  for (const out of [r.stdout, r.stderr, basic.stdout, basic.stderr]) {
    assert.not.match(out, alice.token);
    assert.not.match(out, 'not-it');
  }
  const piped = createWorld({ keyring: memoryKeyring(), stdin: `${alice.token}\n` });
  const quiet = await piped.run(['auth', 'login', fake.url, '--with-token']);
  assert.equal([quiet.code, quiet.stderr.includes('warning')], [0, false]);
  w.dispose();
  piped.dispose();
});

test('without a keyring the secret goes to a 0600 file and status reports plaintext storage', async () => {
  const w = createWorld({ keyring: missingKeyring });
  const r = await w.run(['auth', 'login', fake.url, '--token', alice.token, '--json']);
  assert.is(r.code, 0, r.stderr);
  assert.is(r.json().data.secretStorage, 'file');
  const status = await w.run(['auth', 'status', '--json']);
  assert.equal(status.json().data.hosts[0].secretStorage, 'file');
  assert.is(status.json().data.hosts[0].plaintext, true);
  const human = await w.run(['auth', 'status']);
  assert.match(human.stdout, 'file (plaintext)');
  assert.match(human.stderr, 'plaintext');
  const whoami = await w.run(['auth', 'whoami', '--json']);
  assert.is(whoami.json().data.username, 'alice', 'the file secret is used');
  w.dispose();
});

test('whoami reads X-AUSERNAME then the user record', async () => {
  const w = createWorld({ keyring: memoryKeyring() });
  await w.run(['auth', 'login', fake.url, '--token', bob.token]);
  const r = await w.run(['auth', 'whoami', '--json']);
  assert.is(r.code, 0, r.stderr);
  assert.equal(r.json().data, {
    host: fake.url,
    username: 'bob',
    slug: 'bob',
    displayName: 'Bob Reader',
    email: 'bob@example.test',
    tokenUrl: `${fake.url}/plugins/servlet/access-tokens/users/bob/manage`,
  });
  const human = await w.run(['auth', 'whoami']);
  assert.match(human.stdout, `bob (Bob Reader) on ${fake.url}`);
  w.dispose();
});

test('whoami without credentials guides token onboarding with the token page URL (exit 3)', async () => {
  const w = createWorld();
  const r = await w.run(['auth', 'whoami', '--host', fake.url]);
  assert.is(r.code, 3);
  assert.match(r.stderr, `${fake.url}/plugins/servlet/access-tokens/manage`);
  // The login it suggests keeps the token out of argv and shell history: asked for, or piped in.
  assert.match(r.stderr, `bbdc auth login ${fake.url}  (it asks for the token`);
  assert.match(r.stderr, `echo "$TOKEN" | bbdc auth login ${fake.url} --with-token`);
  assert.not.match(r.stderr, '--token <');
  const j = await w.run(['auth', 'whoami', '--host', fake.url, '--json']);
  assert.is(j.json().error.kind, 'auth');
  assert.ok(j.json().error.details.some((d: string) => d.includes('/plugins/servlet/access-tokens/manage')));
  w.dispose();
});

test('token-url: per user when authenticated, the generic page otherwise', async () => {
  const w = createWorld({ keyring: memoryKeyring() });
  const anon = await w.run(['auth', 'token-url', '--host', fake.url]);
  assert.is(anon.stdout.trim(), `${fake.url}/plugins/servlet/access-tokens/manage`);
  await w.run(['auth', 'login', fake.url, '--token', alice.token]);
  const me = await w.run(['auth', 'token-url']);
  assert.is(me.stdout.trim(), `${fake.url}/plugins/servlet/access-tokens/users/alice/manage`);
  w.dispose();
});

test('logout removes the host and its secret', async () => {
  const keyring = memoryKeyring();
  const w = createWorld({ keyring });
  await w.run(['auth', 'login', fake.url, '--token', alice.token]);
  const r = await w.run(['auth', 'logout', fake.url, '--json']);
  assert.equal(r.json().data, { host: fake.url, removed: true });
  assert.is(keyring.items.size, 0);
  const again = await w.run(['auth', 'logout', fake.url, '--json']);
  assert.is(again.json().data.removed, false);
  w.dispose();
});

test('server list and use switch the default host; an unknown host is a validation error', async () => {
  const w = createWorld({ keyring: memoryKeyring() });
  await w.run(['auth', 'login', fake.url, '--token', alice.token]);
  const other = fake.url.replace('127.0.0.1', 'localhost');
  await w.run(['auth', 'login', other, '--token', bob.token]);
  const list = await w.run(['auth', 'server', 'list', '--json']);
  assert.equal(
    list.json().data.hosts.map((h: { url: string; default: boolean }) => [h.url, h.default]),
    [
      [fake.url, true],
      [other, false],
    ],
  );
  const use = await w.run(['auth', 'server', 'use', other, '--json']);
  assert.equal(use.json().data, { defaultHost: other, previous: fake.url });
  const who = await w.run(['auth', 'whoami', '--json']);
  assert.is(who.json().data.username, 'bob');
  const bad = await w.run(['auth', 'server', 'use', 'nowhere.example.com']);
  assert.is(bad.code, 2);
  assert.match(bad.stderr, 'https://nowhere.example.com is not configured');
  w.dispose();
});

test('alias add, list, remove and discover', async () => {
  const w = createWorld({ keyring: memoryKeyring() });
  await w.run(['auth', 'login', fake.url, '--token', alice.token, '--no-discover-aliases']);
  const add = await w.run(['auth', 'alias', 'add', 'SSH.Example.test:7999', '--json']);
  assert.equal(add.json().data, { host: fake.url, alias: 'ssh.example.test:7999', added: true });
  const list = await w.run(['auth', 'alias', 'list']);
  assert.is(list.stdout, `ssh.example.test:7999\t${fake.url}\n`);
  const remove = await w.run(['auth', 'alias', 'remove', 'ssh.example.test:7999', '--json']);
  assert.is(remove.json().data.removed, true);
  const discover = await w.run(['auth', 'alias', 'discover', '--json']);
  assert.equal(discover.json().data, {
    host: fake.url,
    discovered: ['git.example.test:7999'],
    added: ['git.example.test:7999'],
  });
  const bad = await w.run(['auth', 'alias', 'add', 'https://x/y']);
  assert.is(bad.code, 2);
  assert.match(bad.stderr, 'must be a host or host:port');
  w.dispose();
});

test.run();
