import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { keysState } from '../fake-bitbucket/keys-state.ts';
import { credentials } from '../fake-bitbucket/state.ts';
import { withFake } from './helpers/fake.ts';
import { assertPlan, assertSchema, writesSince } from './helpers/pr.ts';
import { createWorld } from './helpers/world.ts';

const test = suite('bbdc auth token');
let fake: Awaited<ReturnType<typeof withFake>>;
test.before(async () => {
  fake = await withFake();
});
test.after(async () => {
  await fake.stop();
});
const run = async (argv: string[], token = credentials.alice.token) => {
  const w = createWorld({ env: { BBDC_URL: fake.url, BBDC_TOKEN: token } });
  try {
    return await w.run(argv);
  } finally {
    w.dispose();
  }
};
let id = '';
let secret = '';

test('create: the dry run shows the PUT and no secret; the secret is printed once and never logged', async () => {
  const n = fake.requests.length;
  const plan = (
    await run([
      'auth',
      'token',
      'create',
      'ci',
      '--permissions',
      'REPO_READ,PROJECT_READ',
      '--expiry-days',
      '90',
      '--dry-run',
      '--json',
    ])
  ).json().data;
  assertPlan(plan);
  assert.equal(
    [plan.action.method, plan.action.path, plan.action.body],
    [
      'PUT',
      '/rest/access-tokens/latest/users/alice',
      { name: 'ci', permissions: ['REPO_READ', 'PROJECT_READ'], expiryDays: 90 },
    ],
  );
  assert.equal(writesSince(fake, n), []);
  const r = await run([
    'auth',
    'token',
    'create',
    'ci',
    '--permissions',
    'REPO_READ',
    '--log-level',
    'debug',
  ]);
  assert.is(r.code, 0, r.stderr);
  secret = keysState(fake.state).tokens[0].secret;
  id = keysState(fake.state).tokens[0].id;
  assert.is(r.stdout, `${secret}\n`, 'the secret alone on stdout, once');
  assert.match(r.stderr, 'Store the secret now');
  assert.not.match(r.stderr, secret, 'never in the log lines');
  const whoami = await run(['auth', 'whoami', '--json'], secret);
  assert.equal([whoami.code, whoami.json().data.username], [0, 'alice']);
  const j = (await run(['auth', 'token', 'create', 'ci-json', '--permissions', 'REPO_READ', '--json'])).json()
    .data;
  assertSchema('access-token', j);
  assert.equal([typeof j.token, j.scope], ['string', 'user alice']);
  const bad = await run(['auth', 'token', 'create', 'x', '--permissions', 'SYS_ADMIN']);
  assert.equal([bad.code, bad.stderr.includes('SYS_ADMIN is not REPO_READ')], [2, true]);
});

test('list and get never show a secret; update is planned and no-op when nothing changes', async () => {
  const list = await run(['auth', 'token', 'list', '--json']);
  const d = list.json().data;
  assertSchema('access-token-list', d);
  assert.equal(
    d.tokens.map((t: { name: string }) => t.name),
    ['ci', 'ci-json'],
  );
  assert.not.match(list.stdout, secret);
  const got = (await run(['auth', 'token', 'get', id, '--json'])).json().data;
  assert.equal([got.name, got.permissions, got.token], ['ci', ['REPO_READ'], undefined]);
  const same = (
    await run(['auth', 'token', 'update', id, '--permissions', 'REPO_READ', '--dry-run', '--json'])
  ).json().data;
  assert.is(same.predictedAction, 'no-op');
  const plan = (await run(['auth', 'token', 'update', id, '--name', 'ci-2', '--dry-run', '--json'])).json()
    .data;
  assert.equal(
    [plan.predictedAction, plan.action.method, plan.action.path, plan.action.body],
    ['update', 'POST', `/rest/access-tokens/latest/users/alice/${id}`, { name: 'ci-2' }],
  );
  const updated = (await run(['auth', 'token', 'update', id, '--name', 'ci-2', '--json'])).json().data;
  assert.is(updated.name, 'ci-2');
  assert.is((await run(['auth', 'token', 'update', id])).code, 2);
});

test('revoke: the token stops working at once', async () => {
  const r = (await run(['auth', 'token', 'revoke', id, '--json'])).json().data;
  assertSchema('key-removal', r);
  const after = await run(['auth', 'whoami', '--json'], secret);
  assert.is(after.code, 3);
  assert.is((await run(['auth', 'token', 'get', id])).code, 4);
});

test('project and repository tokens need admin rights there', async () => {
  const denied = await run(['auth', 'token', 'list', '--project', 'PROJ', '--json'], credentials.bob.token);
  assert.equal([denied.code, denied.json().error.kind], [3, 'auth']);
  const p = (
    await run([
      'auth',
      'token',
      'create',
      'deploy',
      '--project',
      'proj',
      '--permissions',
      'REPO_WRITE',
      '--json',
    ])
  ).json().data;
  assert.is(p.scope, 'project PROJ');
  const plan = (
    await run([
      'auth',
      'token',
      'create',
      'bot',
      '--repository',
      '-R',
      'PROJ/api',
      '--permissions',
      'REPO_READ',
      '--dry-run',
      '--json',
    ])
  ).json().data;
  assert.is(plan.action.path, '/rest/access-tokens/latest/projects/PROJ/repos/api');
  const both = await run(['auth', 'token', 'list', '--project', 'PROJ', '--repository']);
  assert.equal([both.code, both.stderr.includes('not both')], [2, true]);
});

test.run();
