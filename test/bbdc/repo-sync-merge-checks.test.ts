import * as assert from 'uvu/assert';
import { syncActionsOf } from '../fake-bitbucket/routes/repo-admin.ts';
import { assertPlan, assertSchema, fakeSuite, writesSince } from './helpers/pr.ts';

const s = fakeSuite('bbdc repo sync run and merge-checks list');
const { test, run } = s;

test('repo sync run: plans and sends POST .../synchronize for the branch with the action', async () => {
  await run(['repo', 'fork', 'PROJ/api']);
  const n = s.fake.requests.length;
  const plan = (
    await run([
      'repo',
      'sync',
      'run',
      'master',
      '--action',
      'rebase',
      '-R',
      '~ALICE/api',
      '--dry-run',
      '--json',
    ])
  ).json().data;
  assertPlan(plan);
  assert.equal(writesSince(s.fake, n), []);
  assert.equal(
    [plan.action.method, plan.action.path, plan.action.body],
    [
      'POST',
      '/rest/sync/latest/projects/~alice/repos/api/synchronize',
      { refId: 'refs/heads/master', action: 'REBASE' },
    ],
  );
  const r = await run(['repo', 'sync', 'run', 'master', '--action', 'rebase', '-R', '~ALICE/api', '--json']);
  assert.is(r.code, 0, r.stdout);
  assertSchema('repo-sync-run', r.json().data);
  assert.equal(r.json().data, { repository: '~alice/api', branch: 'master', action: 'REBASE', inSync: true });
  assert.equal(syncActionsOf(s.fake.state), [
    { repo: '~alice/api', refId: 'refs/heads/master', action: 'REBASE' },
  ]);
  const human = await run(['repo', 'sync', 'run', 'master', '-R', '~ALICE/api']);
  assert.is(human.stdout, 'merge of ~alice/api master done: in sync with its origin\n');
  const discard = (
    await run([
      'repo',
      'sync',
      'run',
      'master',
      '--action',
      'discard',
      '-R',
      '~ALICE/api',
      '--dry-run',
      '--json',
    ])
  ).json().data;
  assert.equal(
    [discard.predictedAction, discard.reasons],
    ['delete', ["the fork's own commits on master are dropped"]],
  );
});

test('repo sync run: an unknown branch is blocked, a bad action refused, a non-fork is the server saying no', async () => {
  await run(['repo', 'fork', 'PROJ/api']);
  const missing = await run(['repo', 'sync', 'run', 'nope', '-R', '~ALICE/api', '--json']);
  assert.equal(
    [missing.code, missing.json().error.message],
    [
      5,
      'cannot merge nope of ~alice/api with its origin: branch nope does not exist in ~alice/api; nothing was changed',
    ],
  );
  const bad = await run(['repo', 'sync', 'run', 'master', '--action', 'squash', '--json']);
  assert.equal([bad.code, bad.json().error.kind], [2, 'usage']);
  const notFork = await run(['repo', 'sync', 'run', 'master', '-R', 'PROJ/web', '--json']);
  assert.equal([notFork.code, notFork.json().error.kind], [2, 'validation']);
  assert.match(notFork.json().error.message, 'PROJ/web is not a fork');
  assert.equal(syncActionsOf(s.fake.state), []);
});

test('merge-checks list: only the PRE_PULL_REQUEST_MERGE hooks, as hook list shows them', async () => {
  const json = (await run(['repo', 'settings', 'pull-requests', 'merge-checks', 'list', '--json'])).json()
    .data;
  assertSchema('hook-list', json);
  const all = (await run(['hook', 'list', '--json'])).json().data;
  const checks = all.hooks.filter((h: { type: string }) => h.type === 'PRE_PULL_REQUEST_MERGE');
  assert.ok(checks.length > 0 && checks.length < all.hooks.length);
  assert.equal(json, { ...all, hooks: checks, count: checks.length });
  const human = await run(['repo', 'settings', 'pull-requests', 'merge-checks', 'list']);
  assert.is(human.code, 0, human.stderr);
  for (const h of checks) assert.match(human.stdout, h.shortKey);
  assert.not.match(human.stdout, 'PRE_RECEIVE');
  const bob = await run(['repo', 'settings', 'pull-requests', 'merge-checks', 'list', '--json'], 'bob');
  assert.equal([bob.code, bob.json().error.kind], [3, 'auth']);
});

test.run();
