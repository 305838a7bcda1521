import * as assert from 'uvu/assert';
import { assertPlan, assertSchema, fakeSuite, writesSince } from './helpers/pr.ts';

const s = fakeSuite('bbdc repo settings reviewer-groups users|update, default-reviewers update', 'suite');
const { test, run } = s;

test('users lists the members; update replaces them in one PUT and is a no-op when nothing changes', async () => {
  const created = (
    await run(['repo', 'settings', 'reviewer-groups', 'create', 'platform', '--users', 'bob', '--json'])
  ).json().data;
  const id = String(created.group.id);
  assert.is((await run(['repo', 'settings', 'reviewer-groups', 'users', id])).stdout, 'bob\n');
  const plan = (
    await run([
      'repo',
      'settings',
      'reviewer-groups',
      'update',
      id,
      '--users',
      'alice,bob',
      '--dry-run',
      '--json',
    ])
  ).json().data;
  assertPlan(plan);
  assert.equal(
    [plan.action.method, plan.action.path, plan.action.body],
    [
      'PUT',
      `/rest/api/latest/projects/PROJ/repos/api/settings/reviewer-groups/${id}`,
      { name: 'platform', users: [{ name: 'alice' }, { name: 'bob' }] },
    ],
  );
  const updated = (
    await run(['repo', 'settings', 'reviewer-groups', 'update', id, '--users', 'alice,bob', '--json'])
  ).json().data;
  assertSchema('repo-settings-reviewer-groups-create', updated);
  assert.equal(updated.group.users, ['alice', 'bob']);
  const n = s.fake.requests.length;
  const same = (
    await run([
      'repo',
      'settings',
      'reviewer-groups',
      'update',
      id,
      '--users',
      'bob,alice',
      '--dry-run',
      '--json',
    ])
  ).json().data;
  assert.equal([same.predictedAction, writesSince(s.fake, n)], ['no-op', []]);
  assert.is(
    (await run(['repo', 'settings', 'reviewer-groups', 'update', id, '--name', 'x', '--json'], 'bob')).code,
    3,
  );
  assert.is((await run(['repo', 'settings', 'reviewer-groups', 'users', '999'])).code, 4);
  assert.is((await run(['repo', 'settings', 'reviewer-groups', 'update', id])).code, 2);
});

test('default-reviewers update: keeps what is not given; approvals above the reviewers are refused before sending', async () => {
  const plan = (
    await run([
      'repo',
      'settings',
      'default-reviewers',
      'update',
      '1',
      '--reviewers',
      'alice,bob',
      '--approvals',
      '2',
      '--dry-run',
      '--json',
    ])
  ).json().data;
  assertPlan(plan);
  assert.equal(
    [plan.action.method, plan.action.path],
    ['PUT', '/rest/default-reviewers/latest/projects/PROJ/repos/api/condition/1'],
  );
  assert.equal(plan.action.body.targetMatcher.id, 'refs/heads/main');
  assert.equal(plan.action.body.reviewers, [{ name: 'alice' }, { name: 'bob' }]);
  const done = (
    await run([
      'repo',
      'settings',
      'default-reviewers',
      'update',
      '1',
      '--reviewers',
      'alice,bob',
      '--approvals',
      '2',
      '--json',
    ])
  ).json().data;
  assertSchema('repo-settings-default-reviewers-create', done);
  assert.equal(
    [done.condition.reviewers, done.condition.requiredApprovals, done.condition.target],
    [['alice', 'bob'], 2, 'main'],
  );
  const n = s.fake.requests.length;
  const tooMany = await run([
    'repo',
    'settings',
    'default-reviewers',
    'update',
    '1',
    '--reviewers',
    'bob',
    '--json',
  ]);
  assert.equal([tooMany.code, tooMany.json().error.kind, writesSince(s.fake, n)], [5, 'conflict', []]);
  assert.is(
    (await run(['repo', 'settings', 'default-reviewers', 'update', '9', '--approvals', '0', '--json'])).code,
    5,
  );
  assert.is(
    (await run(['repo', 'settings', 'default-reviewers', 'update', '1', '--reviewers', 'nobody'])).code,
    2,
  );
});

test.run();
