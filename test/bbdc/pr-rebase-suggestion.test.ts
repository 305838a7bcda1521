import * as assert from 'uvu/assert';
import { assertPlan, assertSchema, fakePr, fakeSuite, writesSince } from './helpers/pr.ts';

const s = fakeSuite('bbdc pr rebase and pr comment apply-suggestion');
const { test, run } = s;
const suggestion = '```suggestion\nconst min = 12;\n```';

test('pr rebase: the dry-run plans POST .../rebase with the version; the run moves the source branch', async () => {
  const before = fakePr(s.fake, 1).fromCommit;
  const n = s.fake.requests.length;
  const plan = (await run(['pr', 'rebase', '1', '--dry-run', '--json'])).json().data;
  assertPlan(plan);
  assert.equal(
    [plan.action.method, plan.action.path, plan.action.body, plan.predictedAction],
    [
      'POST',
      '/rest/git/latest/projects/PROJ/repos/api/pull-requests/1/rebase',
      { version: fakePr(s.fake, 1).version },
      'update',
    ],
  );
  assert.equal(writesSince(s.fake, n), []);
  const r = await run(['pr', 'rebase', '1', '--json']);
  assert.is(r.code, 0, r.stdout);
  assertSchema('pr-rebase', r.json().data);
  assert.equal(r.json().data, {
    pullRequest: 1,
    repository: 'PROJ/api',
    rebased: true,
    branch: 'feature/login',
    from: before,
    to: fakePr(s.fake, 1).fromCommit,
  });
  assert.not.equal(fakePr(s.fake, 1).fromCommit, before);
  const human = await run(['pr', 'rebase', '1']);
  assert.match(human.stdout, /^Rebased pull request #1: feature\/login \([0-9a-f]{11} -> [0-9a-f]{11}\)\n$/);
});

test("pr rebase: Bitbucket's vetoes block the plan and the run (exit 5, nothing sent); bob (read only) is refused", async () => {
  const r = await run(['pr', 'rebase', '3', '--dry-run', '--json']);
  assert.equal(
    [r.json().data.predictedAction, r.json().data.blockingReasons],
    ['conflict', ['Pull request is not open: #3 is DECLINED.']],
  );
  const n = s.fake.requests.length;
  const real = await run(['pr', 'rebase', '3', '--json']);
  assert.equal([real.code, real.json().error.kind], [5, 'conflict']);
  assert.match(real.json().error.message, 'Pull request is not open');
  assert.equal(writesSince(s.fake, n), []);
  const bob = await run(['pr', 'rebase', '1', '--dry-run', '--json'], 'bob');
  assert.equal(
    [bob.code, bob.json().error.message],
    [
      3,
      'bob lacks REPO_WRITE on PROJ/api, which rebasing a pull request needs: the server would refuse it; nothing was changed',
    ],
  );
  const bobRun = await run(['pr', 'rebase', '1', '--json'], 'bob');
  assert.is(bobRun.code, 3);
});

test('pr comment apply-suggestion: the versions just read; the suggestion becomes a commit on the source branch', async () => {
  const added = (await run(['pr', 'comment', 'add', '1', '--body', suggestion, '--json'])).json().data;
  const id = String(added.id);
  const version = fakePr(s.fake, 1).version;
  const plan = (
    await run(['pr', 'comment', 'apply-suggestion', '1', id, '-m', 'Apply review', '--dry-run', '--json'])
  ).json().data;
  assertPlan(plan);
  assert.equal(
    [plan.action.path, plan.action.body],
    [
      `/rest/api/latest/projects/PROJ/repos/api/pull-requests/1/comments/${id}/apply-suggestion`,
      { commentVersion: 0, pullRequestVersion: version, suggestionIndex: 0, commitMessage: 'Apply review' },
    ],
  );
  const r = await run(['pr', 'comment', 'apply-suggestion', '1', id, '-m', 'Apply review', '--json']);
  assert.is(r.code, 0, r.stdout);
  assertSchema('pr-comment-apply-suggestion', r.json().data);
  assert.equal(r.json().data, {
    pullRequest: 1,
    repository: 'PROJ/api',
    comment: Number(id),
    suggestion: 0,
    applied: true,
  });
  assert.equal(
    [fakePr(s.fake, 1).commits[0].message, fakePr(s.fake, 1).version],
    ['Apply review', version + 1],
  );
});

test('pr comment apply-suggestion: a comment without that suggestion is blocked; bad --index and bob refused', async () => {
  const plain = await run(['pr', 'comment', 'apply-suggestion', '1', '10', '--dry-run', '--json']);
  assert.equal(plain.json().data.blockingReasons, ['comment 10 has no suggestion (a ```suggestion block)']);
  const added = (await run(['pr', 'comment', 'add', '1', '--body', suggestion, '--json'])).json().data;
  const second = await run([
    'pr',
    'comment',
    'apply-suggestion',
    '1',
    String(added.id),
    '--index',
    '1',
    '--json',
  ]);
  assert.equal(
    [second.code, second.json().error.message],
    [
      5,
      `cannot commit suggestion 1 of comment ${added.id} to the source branch of pull request #1: comment ${added.id} has 1 suggestion (--index 0 to 0); nothing was changed`,
    ],
  );
  const human = await run(['pr', 'comment', 'apply-suggestion', '1', String(added.id)]);
  assert.is(human.stdout, `Applied suggestion 0 of comment #${added.id} to pull request #1\n`);
  const bad = await run(['pr', 'comment', 'apply-suggestion', '1', '10', '--index', '-1', '--json']);
  assert.equal([bad.code, bad.json().error.kind], [2, 'usage']);
  const bob = await run(['pr', 'comment', 'apply-suggestion', '1', '10', '--dry-run', '--json'], 'bob');
  assert.equal([bob.code, bob.json().error.kind], [3, 'auth']);
  assert.match(
    bob.json().error.message,
    'bob lacks REPO_WRITE on PROJ/api, which applying a suggestion needs',
  );
});

test.run();
