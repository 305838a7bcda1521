import { createServer } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { credentials } from '../fake-bitbucket/state.ts';
import { withFake } from './helpers/fake.ts';
import { createWorld } from './helpers/world.ts';

const test = suite('bbdc transport');
let fake: Awaited<ReturnType<typeof withFake>>;
test.before(async () => {
  fake = await withFake();
});
test.after(async () => {
  await fake.stop();
});
const env = { BBDC_URL: '', BBDC_TOKEN: credentials.alice.token };
const world = () => createWorld({ env: { ...env, BBDC_URL: fake.url } });
const since = (n: number) => fake.requests.slice(n);

test('429 is retried after the Retry-After the server asked for', async () => {
  const w = world();
  fake.rateLimit(2, 7);
  const n = fake.requests.length;
  const r = await w.run(['repo', 'list', '--json']);
  assert.is(r.code, 0, r.stderr);
  assert.equal(w.sleeps, [7000, 7000]);
  assert.is(since(n).length, 3);
  w.dispose();
});

test('GET is retried on 5xx with exponential backoff; after the retries it is transient (exit 10)', async () => {
  const w = world();
  fake.inject({ status: 503, times: 3 });
  const r = await w.run(['repo', 'list', '--retry-count', '2', '--retry-backoff', '100ms']);
  assert.is(r.code, 10);
  assert.equal(w.sleeps, [100, 200]);
  assert.match(r.stderr, 'failed (503) after 3 attempts: Injected failure.\n');
  w.dispose();
});

test('at a terminal a read that keeps failing with 500 gives up within about a second, saying after how many attempts', async () => {
  const w = createWorld({ env: { ...env, BBDC_URL: fake.url }, tty: true, stdinTTY: true });
  fake.inject({ status: 500, times: 2 });
  const n = fake.requests.length;
  const r = await w.run(['repo', 'list']);
  assert.is(r.code, 10);
  assert.equal(w.sleeps, [500], 'retries stop before the waiting passes 1 s (500 + 1000 would)');
  assert.is(since(n).length, 2);
  assert.match(r.stderr, 'failed (500) after 2 attempts: Injected failure.\n');
  fake.inject({ status: 500, times: 4 });
  const explicit = await w.run(['repo', 'list', '--retry-count', '3']);
  assert.is(explicit.code, 10);
  assert.equal(w.sleeps.slice(1), [500, 1000, 2000], 'an explicit --retry-count is honoured in full');
  const script = createWorld({ env: { ...env, BBDC_URL: fake.url } });
  fake.inject({ status: 500, times: 4 });
  await script.run(['repo', 'list']);
  assert.equal(script.sleeps, [500, 1000, 2000], 'a script keeps the full retries');
  w.dispose();
  script.dispose();
});

test('with stderr on a terminal each retry says so there: how long and why; not in a script', async () => {
  // `bbdc repo list | less` at a terminal: stdout is piped, stderr is the terminal a person watches.
  const watched = createWorld({ env: { ...env, BBDC_URL: fake.url }, tty: false, stderrTTY: true });
  fake.inject({ status: 500, times: 4 });
  const r = await watched.run(['repo', 'list']);
  assert.is(r.code, 10);
  assert.equal(watched.sleeps, [500, 1000, 2000]);
  const lines = r.stderr.split('\n').filter((l) => l.startsWith('retrying'));
  assert.equal(lines, [
    'retrying in 0.5s: GET /rest/api/latest/repos answered 500',
    'retrying in 1s: GET /rest/api/latest/repos answered 500',
    'retrying in 2s: GET /rest/api/latest/repos answered 500',
  ]);
  const script = createWorld({ env: { ...env, BBDC_URL: fake.url } });
  fake.inject({ status: 500, times: 4 });
  const quiet = await script.run(['repo', 'list']);
  assert.equal([script.sleeps.length, quiet.stderr.includes('retrying')], [3, false]);
  watched.dispose();
  script.dispose();
});

test('POST is not retried on 500, sends the XSRF header, and keeps the server message', async () => {
  const w = world();
  fake.inject({ status: 500, times: 1, method: 'POST' });
  const n = fake.requests.length;
  const r = await w.run(['repo', 'create', 'svc', '--project', 'PROJ']);
  assert.is(r.code, 10);
  const posts = since(n).filter((q) => q.method === 'POST');
  assert.is(posts.length, 1);
  assert.is(posts[0].headers['x-atlassian-token'], 'no-check');
  assert.equal(w.sleeps, []);
  w.dispose();
});

test('POST is retried on 429', async () => {
  const w = world();
  fake.inject({ status: 429, times: 1, method: 'POST', retryAfter: '1' });
  const n = fake.requests.length;
  const r = await w.run(['repo', 'create', 'svc-429', '--project', 'PROJ', '--json']);
  assert.is(r.code, 0, r.stderr);
  assert.is(since(n).filter((q) => q.method === 'POST').length, 2);
  assert.equal(w.sleeps, [1000]);
  w.dispose();
});

test('a refused connection is retried (nothing was sent) and ends as transient', async () => {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  await new Promise((r) => server.close(r));
  const w = createWorld({ env: { BBDC_TOKEN: 'x-token-1' } });
  const r = await w.run([
    'repo',
    'create',
    'x',
    '--project',
    'P',
    '--host',
    `http://127.0.0.1:${port}`,
    '--retry-count',
    '2',
  ]);
  assert.is(r.code, 10);
  assert.match(r.stderr, 'ECONNREFUSED');
  assert.match(r.stderr, 'after 3 attempts');
  assert.is(w.sleeps.length, 2);
  w.dispose();
});

test('a slow server hits --request-timeout', async () => {
  const server = createServer(() => {});
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  const w = createWorld();
  const r = await w.run(
    [
      'auth',
      'token-url',
      '--host',
      `http://127.0.0.1:${port}`,
      '--request-timeout',
      '200ms',
      '--retry-count',
      '0',
    ],
    {
      env: { BBDC_TOKEN: 'abc-token' },
    },
  );
  assert.is(r.code, 10);
  assert.match(r.stderr, 'no answer within 200 ms');
  server.close();
  w.dispose();
});

test('Bitbucket errors map to kinds and exit codes: 401 -> 3, 403 -> 3, 404 -> 4, 409 -> 5', async () => {
  const w = world();
  const unauthorized = await w.run(['repo', 'list', '--json'], { env: { BBDC_TOKEN: 'bad-token-000' } });
  assert.equal([unauthorized.code, unauthorized.json().error.kind], [3, 'auth']);
  assert.match(unauthorized.json().error.message, 'Authentication failed');
  const forbidden = await w.run(['repo', 'create', 'nope', '--project', 'PROJ', '--json'], {
    env: { BBDC_TOKEN: credentials.bob.token },
  });
  assert.equal([forbidden.code, forbidden.json().error.kind], [3, 'auth']);
  const message: string = forbidden.json().error.message;
  assert.match(
    message,
    'not permitted to create repositories in project PROJ. This needs PROJECT_ADMIN on project PROJ',
  );
  assert.not.match(message, '..', 'one period where the server message ends and the hint begins');
  assert.not.match(message, 'auth login', 'a 403 is a missing permission, not a login problem');
  const missing = await w.run(['repo', 'list', '--project', 'NOPE', '--json']);
  assert.equal([missing.code, missing.json().error.kind], [4, 'not_found']);
  assert.match(missing.json().error.message, 'Project NOPE does not exist.');
  const conflict = await w.run(['repo', 'create', 'api', '--project', 'PROJ', '--json']);
  assert.equal([conflict.code, conflict.json().error.kind], [5, 'conflict']);
  assert.match(conflict.json().error.message, 'already taken');
  w.dispose();
});

test('the token never appears in output or logs, even at debug level and in JSON logs', async () => {
  const w = world();
  for (const argv of [
    ['auth', 'login', fake.url, '--token', credentials.alice.token],
    ['auth', 'whoami'],
    ['auth', 'status', '--json'],
    ['repo', 'list', '--log-format', 'json'],
    ['repo', 'list', '--project', 'NOPE'],
    ['auth', 'login', fake.url, '--token', credentials.alice.token, '--dry-run', '--json'],
  ]) {
    const r = await w.run([...argv, '--log-level', 'debug']);
    if (!argv.includes('status'))
      assert.ok(r.stderr.includes('http'), `debug logging is on for ${argv.join(' ')}`);
    assert.not.ok(
      (r.stdout + r.stderr).includes(credentials.alice.token),
      `token leaked by ${argv.join(' ')}`,
    );
  }
  w.dispose();
});

test('a token with a line break is a usage error naming where it came from, sent nowhere and never retried', async () => {
  const n = fake.requests.length;
  const env = createWorld({ env: { BBDC_URL: fake.url, BBDC_TOKEN: `${credentials.alice.token}\n` } });
  const r = await env.run(['repo', 'list']);
  env.dispose();
  assert.is(r.code, 2, r.stderr);
  assert.match(r.stderr, 'BBDC_TOKEN contains a line feed at position');
  assert.not.ok(r.stderr.includes(credentials.alice.token));
  const w = world();
  const login = await w.run(['auth', 'login', fake.url, '--token', `${credentials.alice.token}\r`]);
  w.dispose();
  assert.is(login.code, 2, login.stderr);
  assert.match(login.stderr, '--token contains a carriage return');
  assert.is(fake.requests.length, n, 'nothing was sent');
});

test.run();
