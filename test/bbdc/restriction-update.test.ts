import * as assert from 'uvu/assert';
import { branchRestrictionRoutes } from '../fake-bitbucket/routes/branch-restrictions.ts';
import { withFake } from './helpers/fake.ts';
import { assertPlan, assertSchema, fakeSuite, prWorld, writesSince } from './helpers/pr.ts';

const s = fakeSuite('bbdc branch restriction update');
const { test, run } = s;
const list = async (argv = ['branch', 'restriction', 'list']) =>
  (await run([...argv, '--json'])).json().data.restrictions;
const create = () =>
  run(['branch', 'restriction', 'create', '--type', 'no-deletes', '--branch', 'main', '--users', 'bob']);

test('new groups only: one POST of the same type and branches replaces it in place (same id), users kept', async () => {
  await create();
  const n = s.fake.requests.length;
  const plan = (
    await run(['branch', 'restriction', 'update', '1', '--groups', 'release-managers', '--dry-run', '--json'])
  ).json().data;
  assertPlan(plan);
  assert.equal(writesSince(s.fake, n), []);
  assert.match(
    plan.reasons.join('\n'),
    'a POST of the same type and branches replaces the restriction in place',
  );
  const r = await run(['branch', 'restriction', 'update', '1', '--groups', 'release-managers', '--json']);
  assert.is(r.code, 0, r.stdout);
  assertSchema('branch-restriction', r.json().data);
  assert.equal(
    writesSince(s.fake, n).map((q) => q.method),
    ['POST'],
  );
  assert.equal(await list(), [
    {
      id: 1,
      type: 'no-deletes',
      branches: 'main',
      users: ['bob'],
      groups: ['release-managers'],
      accessKeys: [],
    },
  ]);
  const human = await run(['branch', 'restriction', 'update', '1', '--users', 'alice']);
  assert.is(human.stdout, 'Updated restriction: now 1, no-deletes on main\n', human.stderr);
  assert.equal([(await list())[0].users, (await list())[0].groups], [['alice'], ['release-managers']]);
});

test('a new type: the replacement is created first, then the old one deleted; the plan says both', async () => {
  await create();
  const plan = (
    await run(['branch', 'restriction', 'update', '1', '--type', 'read-only', '--dry-run', '--json'])
  ).json().data;
  assert.equal(
    [plan.action.method, plan.action.body[0].type, plan.action.body[0].users],
    ['POST', 'read-only', ['bob']],
  );
  assert.match(
    plan.action.description,
    'create read-only on main, then delete restriction 1 (no-deletes on main)',
  );
  assert.match(
    plan.reasons.join('\n'),
    'the replacement is created first, then DELETE /rest/branch-permissions/latest/projects/PROJ/repos/api/restrictions/1',
  );
  const n = s.fake.requests.length;
  const r = await run(['branch', 'restriction', 'update', '1', '--type', 'read-only', '--json']);
  assert.is(r.code, 0, r.stdout);
  assert.equal(
    writesSince(s.fake, n).map((q) => `${q.method} ${q.path}`),
    [
      'POST /rest/branch-permissions/latest/projects/PROJ/repos/api/restrictions',
      'DELETE /rest/branch-permissions/latest/projects/PROJ/repos/api/restrictions/1',
    ],
  );
  assert.equal(
    (await list()).map((x: { id: number; type: string; users: string[] }) => [x.id, x.type, x.users]),
    [[2, 'read-only', ['bob']]],
  );
});

test('the delete of the old one fails: both exist and the message says so (never neither)', async () => {
  await create();
  s.fake.inject({ status: 409, times: 1, method: 'DELETE' });
  const r = await run(['branch', 'restriction', 'update', '1', '--branch', 'pattern:release/*', '--json']);
  assert.is(r.code, 5, r.stdout);
  assert.match(
    r.json().error.message,
    'created restriction 2 (the replacement), but deleting the old restriction 1 failed',
  );
  assert.match(r.json().error.message, 'Both exist now; delete 1 with `bbdc branch restriction delete 1`');
  assert.equal(
    (await list()).map((x: { id: number }) => x.id),
    [1, 2],
  );
});

test('a replacement answered with the old id (replaced in place) is never deleted; one answered without an id neither', async () => {
  // The first POST (the create) is the fake's own; the next (the update's) gets `body` as the answer.
  const answer = (body: unknown) => {
    let posts = 0;
    const own = branchRestrictionRoutes.createRestrictions_1;
    return {
      createRestrictions_1: {
        ...own,
        handle: (ctx: Parameters<typeof own.handle>[0]) =>
          posts++ === 0 ? own.handle(ctx) : { status: 200, body },
      },
    };
  };
  const restriction = { type: 'read-only', matcher: { id: 'refs/heads/main', type: { id: 'BRANCH' } } };
  for (const [body, code] of [
    [[{ id: 1, ...restriction, users: [], groups: [] }], 0],
    [[restriction], 1],
  ] as const) {
    const fake = await withFake('small', { routes: answer(body) });
    const w = prWorld(fake);
    await w.run(['branch', 'restriction', 'create', '--type', 'no-deletes', '--branch', 'main']);
    const n = fake.requests.length;
    const r = await w.run(['branch', 'restriction', 'update', '1', '--type', 'read-only', '--json']);
    assert.is(r.code, code, r.stdout);
    assert.equal(
      writesSince(fake, n).map((q) => q.method),
      ['POST'],
      'no DELETE by the old id',
    );
    if (code) assert.match(r.json().error.message, 'named no id for it, so the old one was not deleted');
    w.dispose();
    await fake.stop();
  }
});

test('project branch-restriction update; nothing to change, a bad id and a read-only user are refused', async () => {
  await run(['project', 'branch-restriction', 'create', 'PROJ', '--type', 'no-deletes', '--branch', 'main']);
  const r = await run([
    'project',
    'branch-restriction',
    'update',
    'PROJ',
    '1',
    '--groups',
    'admins',
    '--json',
  ]);
  assert.is(r.code, 0, r.stdout);
  assert.equal((await list(['project', 'branch-restriction', 'list', 'PROJ']))[0].groups, ['admins']);
  const none = await run(['project', 'branch-restriction', 'update', 'PROJ', '1', '--json']);
  assert.equal(
    [none.code, none.json().error.message],
    [2, 'nothing to change: pass at least one of --type, --branch, --users, --groups'],
  );
  const bad = await run(['branch', 'restriction', 'update', 'x1', '--users', 'bob', '--json']);
  assert.equal(
    [bad.code, bad.json().error.message],
    [2, 'restriction id "x1" must be a number (see bbdc branch restriction list)'],
  );
  const n = s.fake.requests.length;
  const bob = await run(
    ['project', 'branch-restriction', 'update', 'PROJ', '1', '--groups', 'x', '--json'],
    'bob',
  );
  assert.is(bob.code, 3, bob.stdout);
  assert.equal(writesSince(s.fake, n).filter((q) => q.method !== 'POST' || false).length, 0);
  assert.equal((await list(['project', 'branch-restriction', 'list', 'PROJ']))[0].groups, ['admins']);
});

test.run();
