import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { watchersOf } from '../fake-bitbucket/review-state.ts';
import { reactionsOf } from '../fake-bitbucket/routes/reactions.ts';
import { withFake } from './helpers/fake.ts';
import { assertPlan, assertSchema, fakePr, prWorld, snapshot, writesSince } from './helpers/pr.ts';

const test = suite('bbdc pr review loop');
let fake: Awaited<ReturnType<typeof withFake>>;
test.before(async () => {
  fake = await withFake();
});
test.after(async () => {
  await fake.stop();
});
const run = async (argv: string[], user: 'alice' | 'bob' = 'alice', tty = false) => {
  const w = prWorld(fake, user, { tty });
  try {
    return await w.run(argv);
  } finally {
    w.dispose();
  }
};
const sha = (n: number) => n.toString(16).padStart(2, '0').repeat(20);

test('pr activity list: newest first, comments named, --limit caps the total across pages', async () => {
  const human = await run(['pr', 'activity', 'list', '1', '--no-color'], 'alice', true);
  const lines = human.stdout.trimEnd().split('\n');
  assert.match(lines[0], /^DATE +USER +ACTION +DETAIL$/);
  assert.match(lines[1], /alice +commented +added #15: Add tests for the login form$/);
  assert.match(lines.at(-1)!, /bob +opened/);
  const json = await run(['pr', 'activity', 'list', '1', '--json']);
  const d = json.json().data;
  assertSchema('pr-activity-list', d);
  assert.equal([d.count, d.truncated, d.activities.at(-1).action], [7, false, 'OPENED']);
  assert.equal(d.activities[1].comment, { id: 14, text: 'Agreed.' });
  const n = fake.requests.length;
  const capped = (await run(['pr', 'activity', 'list', '1', '--limit', '2', '--json'])).json().data;
  assert.equal([capped.count, capped.truncated], [2, true]);
  assert.is(fake.requests[n].query.get('limit'), '2');
  const bad = await run(['pr', 'activity', 'list', '1', '--limit', '0']);
  assert.equal(
    [bad.code, bad.stderr.includes('--limit "0" must be a whole number of at least 1')],
    [2, true],
  );
});

test('pr participants: author and reviewers with their status', async () => {
  const human = await run(['pr', 'participants', '2']);
  assert.is(human.stdout, 'alice\tauthor\t-\nbob\treviewer\tapproved\n');
  const d = (await run(['pr', 'participants', '2', '--json'])).json().data;
  assertSchema('pr-participants', d);
  assert.equal(d.participants[1], {
    name: 'bob',
    displayName: 'Bob Reader',
    role: 'REVIEWER',
    status: 'APPROVED',
  });
  const missing = await run(['pr', 'participants', '99', '--json']);
  assert.equal([missing.code, missing.json().error.kind], [4, 'not_found']);
});

test('pr comment get: the comment with its replies', async () => {
  const human = await run(['pr', 'comment', 'get', '1', '12']);
  assert.match(human.stdout, 'Check the password length here.');
  assert.match(human.stdout, 'Agreed.');
  const d = (await run(['pr', 'comment', 'get', '1', '12', '--json'])).json().data;
  assertSchema('pr-comment', d);
  assert.equal([d.id, d.replies[0].id, d.replies[0].replies[0].id], [12, 13, 14]);
  const bad = await run(['pr', 'comment', 'get', '1', 'x']);
  assert.equal([bad.code, bad.stderr.includes('comment id "x" must be a whole number')], [2, true]);
});

test('pr comment update: the dry run shows the exact PUT with the version read; the run sends it', async () => {
  const before = snapshot(fake);
  const n = fake.requests.length;
  const dry = await run([
    'pr',
    'comment',
    'update',
    '1',
    '10',
    '--body',
    'Looks great.',
    '--dry-run',
    '--json',
  ]);
  const plan = dry.json().data;
  assertPlan(plan);
  assert.equal(
    [plan.predictedAction, plan.action.method, plan.action.path, plan.action.body],
    [
      'update',
      'PUT',
      '/rest/api/latest/projects/PROJ/repos/api/pull-requests/1/comments/10',
      { version: 0, text: 'Looks great.' },
    ],
  );
  assert.equal([snapshot(fake), writesSince(fake, n)], [before, []]);
  const m = fake.requests.length;
  const done = await run(['pr', 'comment', 'update', '1', '10', '--body', 'Looks great.', '--json']);
  assertSchema('pr-comment', done.json().data);
  const writes = writesSince(fake, m);
  assert.equal(
    writes.map((q) => `${q.method} ${q.path}`),
    [`PUT ${plan.action.path}`],
  );
  assert.equal([done.json().data.text, done.json().data.version], ['Looks great.', 1]);
  const again = await run(['pr', 'comment', 'update', '1', '10', '--body', 'Looks great.', '--dry-run']);
  assert.match(again.stdout, 'nothing to do');
  const none = await run(['pr', 'comment', 'update', '1', '10']);
  assert.equal([none.code, none.stderr.includes('--body TEXT (or --body-file FILE')], [2, true]);
});

test('pr comment delete: refuses a comment with replies; deletes a leaf with its version', async () => {
  const blocked = await run(['pr', 'comment', 'delete', '1', '12', '--json']);
  assert.equal([blocked.code, blocked.json().error.kind], [5, 'conflict']);
  assert.match(blocked.json().error.message, 'comment 12 has 1 reply');
  const n = fake.requests.length;
  const dry = (await run(['pr', 'comment', 'delete', '1', '14', '--dry-run', '--json'])).json().data;
  assert.equal(
    [dry.action.method, dry.action.path],
    ['DELETE', '/rest/api/latest/projects/PROJ/repos/api/pull-requests/1/comments/14?version=0'],
  );
  assert.equal(writesSince(fake, n), []);
  const done = await run(['pr', 'comment', 'delete', '1', '14', '--json']);
  assertSchema('pr-comment-delete', done.json().data);
  const del = writesSince(fake, n)[0];
  assert.equal(
    [del.method, del.path, del.query.get('version')],
    ['DELETE', '/rest/api/latest/projects/PROJ/repos/api/pull-requests/1/comments/14', '0'],
  );
  assert.not.ok(fakePr(fake, 1).comments.some((c) => c.id === 14));
  assert.is((await run(['pr', 'comment', 'delete', '1', '14'])).code, 4);
});

test('pr watch / unwatch: one POST or DELETE, planned as sent', async () => {
  const dry = (await run(['pr', 'watch', '2', '--dry-run', '--json'], 'bob')).json().data;
  assertPlan(dry);
  assert.equal(
    [dry.action.method, dry.action.path],
    ['POST', '/rest/api/latest/projects/PROJ/repos/api/pull-requests/2/watch'],
  );
  assert.is(watchersOf(fake.state, 'PROJ/api#2').size, 0);
  const w = await run(['pr', 'watch', '2', '--json'], 'bob');
  assertSchema('pr-watch', w.json().data);
  assert.equal([...watchersOf(fake.state, 'PROJ/api#2')], ['bob']);
  const u = await run(['pr', 'unwatch', '2'], 'bob');
  assert.is(u.stdout, 'No longer watching pull request #2\n');
  assert.equal([...watchersOf(fake.state, 'PROJ/api#2')], []);
});

test('pr merge-base and commit prs: the base commit; which pull requests bring a commit', async () => {
  const base = (await run(['pr', 'merge-base', '1', '--json'])).json().data;
  assertSchema('commit', base);
  assert.is(base.id, sha(1));
  const human = await run(['pr', 'merge-base', '1']);
  assert.match(human.stdout, `commit ${sha(1)}`);
  const prs = (await run(['commit', 'prs', sha(3), '--json'])).json().data;
  assertSchema('pr-list', prs);
  assert.equal(
    prs.pullRequests.map((p: { id: number }) => p.id),
    [1],
  );
  const none = (await run(['commit', 'prs', 'abcdef12', '--json'])).json().data;
  assert.equal(none.count, 0);
  const dots = await run(['commit', 'prs', '..']);
  assert.equal([dots.code, dots.stderr.includes('commit cannot be ".."')], [2, true]);
});

test('pr default-reviewers: the conditions matching the branches, and who is on the PR already', async () => {
  const n = fake.requests.length;
  const d = (await run(['pr', 'default-reviewers', '2', '--json'])).json().data;
  assertSchema('pr-default-reviewers', d);
  assert.equal(
    [d.from, d.to, d.reviewers],
    ['feature/search', 'main', [{ name: 'bob', displayName: 'Bob Reader', added: true }]],
  );
  const q = fake.requests.slice(n).find((r) => r.operationId === 'getReviewers')!;
  assert.equal(
    [q.query.get('sourceRefId'), q.query.get('targetRefId'), q.query.get('targetRepoId')],
    ['refs/heads/feature/search', 'refs/heads/main', '11'],
  );
  assert.is((await run(['pr', 'default-reviewers', '2'])).stdout, 'bob\tyes\n');
});

test('pr comment react: one PUT (or DELETE with --remove) per emoji; an unknown comment is not found', async () => {
  const plan = (
    await run(['pr', 'comment', 'react', '1', '10', ':thumbsup:', '--dry-run', '--json'], 'bob')
  ).json().data;
  assertPlan(plan);
  assert.equal(
    [plan.action.method, plan.action.path],
    [
      'PUT',
      '/rest/comment-likes/latest/projects/PROJ/repos/api/pull-requests/1/comments/10/reactions/thumbsup',
    ],
  );
  const r = await run(['pr', 'comment', 'react', '1', '10', 'thumbsup', '--json'], 'bob');
  assertSchema('pr-comment-react', r.json().data);
  assert.equal([...reactionsOf(fake.state)], ['PROJ/api#1/10/thumbsup/bob']);
  const off = await run(['pr', 'comment', 'react', '1', '10', 'thumbsup', '--remove'], 'bob');
  assert.is(off.stdout, 'Removed your reaction :thumbsup: from comment #10\n');
  assert.equal([...reactionsOf(fake.state)], []);
  assert.is((await run(['pr', 'comment', 'react', '1', '999', 'heart'])).code, 4);
  assert.is((await run(['pr', 'comment', 'react', '1', '10', 'not an emoji'])).code, 2);
});

test.run();
