import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { watchersOf } from '../fake-bitbucket/review-state.ts';
import type { RouteContext } from '../fake-bitbucket/route-types.ts';
import { repoAdminRoutes } from '../fake-bitbucket/routes/repo-admin.ts';
import { withFake } from './helpers/fake.ts';
import { assertPlan, assertSchema, prWorld, writesSince } from './helpers/pr.ts';

const test = suite('bbdc repo watch / archive / label / sync');
let fake: Awaited<ReturnType<typeof withFake>>;
// While on, the labels answer holds one label per page, as a server with a small page size would.
let onePerPage = false;
test.before(async () => {
  const labels = repoAdminRoutes.getAllLabelsForRepository;
  fake = await withFake('small', {
    routes: {
      getAllLabelsForRepository: {
        ...labels,
        handle: (ctx: RouteContext) =>
          labels.handle(onePerPage ? { ...ctx, query: new URLSearchParams({ limit: '1' }) } : ctx),
      },
    },
  });
});
test.after(async () => {
  await fake.stop();
});
const run = async (argv: string[], user: 'alice' | 'bob' = 'alice') => {
  const w = prWorld(fake, user);
  try {
    return await w.run(argv);
  } finally {
    w.dispose();
  }
};

test('repo watch / unwatch: readers may watch; one POST or DELETE', async () => {
  const plan = (await run(['repo', 'watch', '--dry-run', '--json'], 'bob')).json().data;
  assertPlan(plan);
  assert.equal(
    [plan.action.method, plan.action.path],
    ['POST', '/rest/api/latest/projects/PROJ/repos/api/watch'],
  );
  const w = (await run(['repo', 'watch', '--json'], 'bob')).json().data;
  assertSchema('repo-toggle', w);
  assert.equal([...watchersOf(fake.state, 'PROJ/api')], ['bob']);
  assert.is((await run(['repo', 'unwatch'], 'bob')).stdout, 'PROJ/api is not watching\n');
  assert.equal([...watchersOf(fake.state, 'PROJ/api')], []);
});

test('repo archive / unarchive: planned from the current state; a no-op sends nothing; admins only', async () => {
  const plan = (await run(['repo', 'archive', '--dry-run', '--json'])).json().data;
  assert.equal(
    [plan.predictedAction, plan.action.method, plan.action.body],
    // The PUT replaces the repository: its other settable fields go back as they are.
    ['update', 'PUT', { name: 'api', public: false, archived: true }],
  );
  const denied = await run(['repo', 'archive', '--json'], 'bob');
  assert.equal([denied.code, denied.json().error.kind], [3, 'auth']);
  const done = (await run(['repo', 'archive', '--json'])).json().data;
  assert.equal([done.value, done.changed], [true, true]);
  assert.is((await run(['repo', 'get', 'PROJ/api', '--json'])).json().data.archived, true);
  const n = fake.requests.length;
  const again = (await run(['repo', 'archive', '--json'])).json().data;
  assert.equal([again.changed, writesSince(fake, n)], [false, []]);
  await run(['repo', 'unarchive']);
  assert.is((await run(['repo', 'get', 'PROJ/api', '--json'])).json().data.archived, false);
});

test('repo label: add lower-cases and is idempotent; remove; a bad name is a usage error', async () => {
  const added = (await run(['repo', 'label', 'add', 'Backend', '--json'])).json().data;
  assertSchema('repo-labels', added);
  assert.equal(added.labels, ['backend']);
  const n = fake.requests.length;
  const again = (await run(['repo', 'label', 'add', 'backend', '--dry-run', '--json'])).json().data;
  assert.equal([again.predictedAction, writesSince(fake, n)], ['no-op', []]);
  await run(['repo', 'label', 'add', 'team-a']);
  assert.is((await run(['repo', 'label', 'list'])).stdout, 'backend\nteam-a\n');
  const rm = (await run(['repo', 'label', 'remove', 'backend', '--dry-run', '--json'])).json().data;
  assert.equal(
    [rm.action.method, rm.action.path],
    ['DELETE', '/rest/api/latest/projects/PROJ/repos/api/labels/backend'],
  );
  await run(['repo', 'label', 'remove', 'backend']);
  assert.equal((await run(['repo', 'label', 'list', '--json'])).json().data.labels, ['team-a']);
  assert.is((await run(['repo', 'label', 'add', 'x'])).code, 2);
});

test('repo label list: no start/limit (the 9.4 document declares none); a partial answer is refused', async () => {
  await run(['repo', 'label', 'add', 'alpha']);
  await run(['repo', 'label', 'add', 'beta']);
  const n = fake.requests.length;
  assert.equal((await run(['repo', 'label', 'list', '--json'])).json().data.labels, [
    'alpha',
    'beta',
    'team-a',
  ]);
  const reads = fake.requests.slice(n).filter((q) => q.path.endsWith('/labels'));
  assert.equal(
    reads.map((q) => [...q.query.keys()]),
    [[]],
  );
  onePerPage = true;
  try {
    const r = await run(['repo', 'label', 'list']);
    assert.is.not(r.code, 0);
    assert.match(r.stderr, 'answered 1 items and isLastPage false');
    assert.match(r.stderr, 'bbdc will not show a partial list');
    assert.not.match(r.stderr, '    at ');
  } finally {
    onePerPage = false;
  }
  await run(['repo', 'label', 'remove', 'alpha']);
  await run(['repo', 'label', 'remove', 'beta']);
});

test('repo sync: status of a fork; enable and disable; a non-fork is refused by the server', async () => {
  const fork = await run(['repo', 'fork', 'PROJ/api', '--json']);
  assert.is(fork.code, 0, fork.stderr);
  const f = fork.json().data;
  const R = ['-R', `${f.project}/${f.slug}`];
  const before = (await run(['repo', 'sync', 'status', ...R, '--json'])).json().data;
  assertSchema('repo-sync-status', before);
  assert.equal([before.available, before.enabled], [true, false]);
  const plan = (await run(['repo', 'sync', 'enable', ...R, '--dry-run', '--json'])).json().data;
  assert.equal(
    [plan.action.method, plan.action.path, plan.action.body],
    [
      'POST',
      `/rest/sync/latest/projects/${encodeURIComponent(f.project)}/repos/${f.slug}`,
      { enabled: true },
    ],
  );
  await run(['repo', 'sync', 'enable', ...R]);
  assert.is((await run(['repo', 'sync', 'status', ...R, '--json'])).json().data.enabled, true);
  await run(['repo', 'sync', 'disable', ...R]);
  assert.match((await run(['repo', 'sync', 'status', ...R])).stdout, 'fork syncing off');
  const notFork = await run(['repo', 'sync', 'enable', '--json']);
  assert.equal([notFork.code, notFork.json().error.kind], [2, 'validation']);
});

test.run();
