import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { withFake } from './helpers/fake.ts';
import { assertPlan, assertSchema, prWorld, writesSince } from './helpers/pr.ts';

const test = suite('bbdc deployment / build status stats|delete');
let fake: Awaited<ReturnType<typeof withFake>>;
test.before(async () => {
  fake = await withFake();
});
test.after(async () => {
  await fake.stop();
});
const commit = '02'.repeat(20);
const run = async (argv: string[], user: 'alice' | 'bob' = 'alice') => {
  const w = prWorld(fake, user);
  try {
    return await w.run(argv);
  } finally {
    w.dispose();
  }
};
const id = ['--key', 'web', '--environment', 'production', '--sequence', '12'];
const path = `/rest/api/latest/projects/PROJ/repos/api/commits/${commit}/deployments`;

test('deployment create: the dry run is the exact POST; created, read back, then updated', async () => {
  const argv = [
    'deployment',
    'create',
    commit,
    ...id,
    '--state',
    'in-progress',
    '--url',
    'https://cd.example.test/12',
    '--environment-type',
    'production',
  ];
  const n = fake.requests.length;
  const plan = (await run([...argv, '--dry-run', '--json'])).json().data;
  assertPlan(plan);
  assert.equal([plan.predictedAction, plan.action.method, plan.action.path], ['create', 'POST', path]);
  assert.equal(plan.action.body, {
    key: 'web',
    deploymentSequenceNumber: 12,
    displayName: 'web',
    description: 'web #12 to production',
    state: 'IN_PROGRESS',
    url: 'https://cd.example.test/12',
    environment: { key: 'production', displayName: 'production', type: 'PRODUCTION' },
  });
  assert.equal(writesSince(fake, n), []);
  const created = (await run([...argv, '--json'])).json().data;
  assertSchema('deployment', created);
  assert.equal(
    [created.state, created.commit, created.environmentType],
    ['IN_PROGRESS', commit, 'PRODUCTION'],
  );
  const done = await run([
    'deployment',
    'create',
    commit,
    ...id,
    '--state',
    'successful',
    '--url',
    'https://cd.example.test/12',
    '--dry-run',
    '--json',
  ]);
  assert.is(done.json().data.predictedAction, 'update');
  await run([
    'deployment',
    'create',
    commit,
    ...id,
    '--state',
    'successful',
    '--url',
    'https://cd.example.test/12',
  ]);
  const got = await run(['deployment', 'get', commit, ...id]);
  assert.is(
    got.stdout,
    `web #12 to production: SUCCESSFUL (commit ${commit.slice(0, 11)})\nhttps://cd.example.test/12\n`,
  );
  const missing = await run(['deployment', 'get', commit, ...id.slice(0, 4)]);
  assert.equal([missing.code, missing.stderr.includes('--sequence is required')], [2, true]);
  const reader = await run(
    ['deployment', 'create', commit, ...id, '--state', 'failed', '--url', 'https://x', '--json'],
    'bob',
  );
  assert.equal([reader.code, reader.json().error.kind], [3, 'auth']);
});

test('deployment delete: removes it; a second delete sends nothing', async () => {
  const d = (await run(['deployment', 'delete', commit, ...id, '--json'])).json().data;
  assertSchema('deployment-delete', d);
  assert.is(d.deleted, true);
  const n = fake.requests.length;
  const again = (await run(['deployment', 'delete', commit, ...id, '--json'])).json().data;
  assert.equal([again.deleted, writesSince(fake, n)], [false, []]);
  assert.is((await run(['deployment', 'get', commit, ...id])).code, 4);
});

test('build status stats: counts for several commits in one request', async () => {
  const other = '05'.repeat(20);
  const n = fake.requests.length;
  const raw = await run(['build', 'status', 'stats', commit, other, '--json']);
  const d = raw.json().data;
  assertSchema('build-status-stats', d);
  assert.equal(
    d.commits.map((c: { successful: number; inProgress: number }) => [c.successful, c.inProgress]),
    [
      [1, 1],
      [1, 0],
    ],
  );
  assert.equal(
    fake.requests.slice(n).map((q) => q.operationId),
    ['getMultipleBuildStatusStats'],
  );
  const human = await run(['build', 'status', 'stats', commit]);
  assert.is(human.stdout, `${commit.slice(0, 11)}\t1\t0\t1\t0\t0\n`);
});

test('build status delete: planned and sent with its key; needs REPO_ADMIN', async () => {
  const set = await run([
    'build',
    'status',
    'set',
    commit,
    '--key',
    'ci',
    '--state',
    'SUCCESSFUL',
    '--url',
    'https://ci.example.test/1',
  ]);
  assert.is(set.code, 0, set.stderr);
  const plan = (await run(['build', 'status', 'delete', commit, '--key', 'ci', '--dry-run', '--json'])).json()
    .data;
  assert.equal(
    [plan.predictedAction, plan.action.path],
    ['delete', `/rest/api/latest/projects/PROJ/repos/api/commits/${commit}/builds?key=ci`],
  );
  const denied = await run(['build', 'status', 'delete', commit, '--key', 'ci', '--json'], 'bob');
  assert.is(denied.code, 3);
  const d = (await run(['build', 'status', 'delete', commit, '--key', 'ci', '--json'])).json().data;
  assertSchema('build-status-delete', d);
  assert.is(d.deleted, true);
  const gone = (await run(['build', 'status', 'delete', commit, '--key', 'ci', '--json'])).json().data;
  assert.is(gone.deleted, false);
});

test.run();
