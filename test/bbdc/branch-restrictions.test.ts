import * as assert from 'uvu/assert';
import { assertPlan, assertSchema, fakeSuite, writesSince } from './helpers/pr.ts';

const s = fakeSuite('bbdc branch restriction', 'suite');
const { test, run } = s;

test('branch restriction: create (the exact POST), list, get, delete; admins only; bad input refused', async () => {
  const argv = [
    'branch',
    'restriction',
    'create',
    '--type',
    'fast-forward-only',
    '--branch',
    'main',
    '--users',
    'bob',
    '--groups',
    'release-managers',
  ];
  const n = s.fake.requests.length;
  const plan = (await run([...argv, '--dry-run', '--json'])).json().data;
  assertPlan(plan);
  assert.equal(
    [plan.action.method, plan.action.path],
    ['POST', '/rest/branch-permissions/latest/projects/PROJ/repos/api/restrictions'],
  );
  // The 9.4 document declares only the bulk form: an array in application/vnd.atl.bitbucket.bulk+json.
  assert.equal(plan.action.body, [
    {
      type: 'fast-forward-only',
      matcher: { id: 'refs/heads/main', displayId: 'main', type: { id: 'BRANCH' } },
      users: ['bob'],
      groups: ['release-managers'],
    },
  ]);
  assert.equal(writesSince(s.fake, n), []);
  const created = (await run([...argv, '--json'])).json().data;
  assert.is(writesSince(s.fake, n)[0].headers['content-type'], 'application/vnd.atl.bitbucket.bulk+json');
  assertSchema('branch-restriction', created);
  assert.equal(
    [created.restriction.type, created.restriction.users, created.restriction.groups],
    ['fast-forward-only', ['bob'], ['release-managers']],
  );
  const id = String(created.restriction.id);
  const list = await run(['branch', 'restriction', 'list']);
  assert.is(list.stdout, `${id}\tfast-forward-only\tmain\tbob, @release-managers\n`);
  assertSchema(
    'branch-restriction-list',
    (await run(['branch', 'restriction', 'list', '--json'])).json().data,
  );
  assert.is(
    (await run(['branch', 'restriction', 'get', id, '--json'])).json().data.restriction.id,
    Number(id),
  );
  assert.is((await run(['branch', 'restriction', 'list', '--json'], 'bob')).code, 3);
  const any = await run(['branch', 'restriction', 'create', '--type', 'read-only', '--branch', 'any']);
  assert.equal([any.code, any.stderr.includes('--branch any is not allowed')], [2, true]);
  const del = (await run(['branch', 'restriction', 'delete', id, '--json'])).json().data;
  assert.equal([del.deleted, del.restriction.id], [true, Number(id)]);
  assert.is((await run(['branch', 'restriction', 'get', id])).code, 4);
});

test('project branch-restriction: the same on a project', async () => {
  const c = (
    await run([
      'project',
      'branch-restriction',
      'create',
      'PROJ',
      '--type',
      'no-deletes',
      '--branch',
      'pattern:release/*',
      '--json',
    ])
  ).json().data;
  assert.equal([c.scope, c.restriction.branches], ['PROJ', 'pattern:release/*']);
  const plan = (
    await run([
      'project',
      'branch-restriction',
      'delete',
      'PROJ',
      String(c.restriction.id),
      '--dry-run',
      '--json',
    ])
  ).json().data;
  assert.is(
    plan.action.path,
    `/rest/branch-permissions/latest/projects/PROJ/restrictions/${c.restriction.id}`,
  );
});

test.run();
