import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { withFake } from './helpers/fake.ts';
import { assertPlan, assertSchema, fakePr, prWorld, snapshot, writesSince } from './helpers/pr.ts';

const test = suite('bbdc pr reviewer and review');
let fake: Awaited<ReturnType<typeof withFake>>;
test.before.each(async () => {
  fake = await withFake();
});
test.after.each(async () => {
  await fake.stop();
});

const reviewers = (id: number) =>
  fakePr(fake, id)
    .participants.filter((p) => p.role === 'REVIEWER')
    .map((p) => `${p.name}:${p.status}`);

test('reviewer add sends POST .../participants with role REVIEWER, never PUT .../participants/{slug}', async () => {
  const w = prWorld(fake, 'bob');
  const n = fake.requests.length;
  const r = await w.run(['pr', 'reviewer', 'add', '1', 'alice', '--json']);
  assert.is(r.code, 0, r.stdout + r.stderr);
  assertSchema('pr-reviewer', r.json().data);
  assert.equal(r.json().data, {
    pullRequest: 1,
    repository: 'PROJ/api',
    action: 'added',
    user: { name: 'alice', displayName: 'Alice Admin' },
    status: 'UNAPPROVED',
  });
  const writes = writesSince(fake, n).map((q) => `${q.method} ${q.path}`);
  assert.equal(writes, ['POST /rest/api/latest/projects/PROJ/repos/api/pull-requests/1/participants']);
  assert.equal(reviewers(1), ['alice:UNAPPROVED'], 'the fake only adds reviewers through POST');
  const human = await w.run(['pr', 'reviewer', 'add', '1', 'alice']);
  assert.is(human.stdout, 'Added alice as a reviewer of pull request #1\n');
  assert.equal(reviewers(1), ['alice:UNAPPROVED'], 'adding a reviewer twice keeps one');
  w.dispose();
});

test('reviewer add checks the user exists first and refuses the author', async () => {
  const w = prWorld(fake, 'bob');
  const n = fake.requests.length;
  const r = await w.run(['pr', 'reviewer', 'add', '1', 'ghost']);
  assert.is(r.code, 2);
  assert.match(r.stderr, 'user: no such user "ghost"; nothing was changed');
  assert.equal(writesSince(fake, n), []);
  const author = await w.run(['pr', 'reviewer', 'add', '1', 'bob', '--dry-run', '--json']);
  assert.equal(author.json().data.blockingReasons, ['bob is the author and cannot review it']);
  w.dispose();
});

test('reviewer remove sends DELETE .../participants/{slug}; the human form says so', async () => {
  const w = prWorld(fake);
  const r = await w.run(['pr', 'reviewer', 'remove', '2', 'bob']);
  assert.is(r.code, 0, r.stderr);
  assert.is(r.stdout, 'Removed bob as a reviewer of pull request #2\n');
  assert.equal(reviewers(2), []);
  assert.ok(
    fake.requests.some((q) => q.method === 'DELETE' && q.path.endsWith('/pull-requests/2/participants/bob')),
  );
  const gone = await w.run(['pr', 'reviewer', 'remove', '2', 'bob', '--json']);
  assert.is(gone.code, 4);
  w.dispose();
});

test('reviewer add/remove --dry-run plan the calls and change nothing', async () => {
  const w = prWorld(fake, 'bob');
  const before = snapshot(fake);
  const n = fake.requests.length;
  const add = (await w.run(['pr', 'reviewer', 'add', '1', 'alice', '--dry-run', '--json'])).json().data;
  assertPlan(add);
  assert.equal(
    [add.predictedAction, add.action.method, add.action.body],
    ['update', 'POST', { user: { name: 'alice' }, role: 'REVIEWER' }],
  );
  const remove = (await w.run(['pr', 'reviewer', 'remove', '2', 'bob', '--dry-run', '--json'])).json().data;
  assert.equal([remove.predictedAction, remove.action.method], ['update', 'DELETE']);
  const absent = (await w.run(['pr', 'reviewer', 'remove', '1', 'alice', '--dry-run', '--json'])).json().data;
  assert.is(absent.predictedAction, 'no-op');
  assert.equal(writesSince(fake, n), []);
  assert.is(snapshot(fake), before);
  w.dispose();
});

test('review approve, needs-work and unapprove set your own status with PUT .../participants/{your slug}', async () => {
  const w = prWorld(fake);
  const r = await w.run(['pr', 'review', 'approve', '1', '--json']);
  assert.is(r.code, 0, r.stdout);
  assertSchema('pr-review', r.json().data);
  assert.equal(
    [r.json().data.user.name, r.json().data.status, r.json().data.role],
    ['alice', 'APPROVED', 'PARTICIPANT'],
  );
  const put = fake.requests.filter((q) => q.method === 'PUT').map((q) => q.path);
  assert.equal(put, ['/rest/api/latest/projects/PROJ/repos/api/pull-requests/1/participants/alice']);
  const nw = await w.run(['pr', 'review', 'needs-work', '1']);
  assert.is(nw.stdout, 'Your review of pull request #1 is now: needs work\n');
  assert.is(fakePr(fake, 1).participants.find((p) => p.name === 'alice')!.status, 'NEEDS_WORK');
  await w.run(['pr', 'review', 'unapprove', '1']);
  assert.is(fakePr(fake, 1).participants.find((p) => p.name === 'alice')!.status, 'UNAPPROVED');
  const own = await w.run(['pr', 'review', 'approve', '2']);
  assert.is(own.code, 2, 'the author cannot approve');
  w.dispose();
});

test('review --dry-run reports your current status and changes nothing', async () => {
  const w = prWorld(fake, 'bob');
  const before = snapshot(fake);
  const n = fake.requests.length;
  const same = (await w.run(['pr', 'review', 'approve', '2', '--dry-run', '--json'])).json().data;
  assertPlan(same);
  assert.equal([same.predictedAction, same.reasons[1]], ['no-op', 'your review is approved']);
  const change = (await w.run(['pr', 'review', 'needs-work', '2', '--dry-run'])).stdout;
  assert.match(change, 'Dry run: would set your review of pull request #2 to needs work');
  assert.equal(writesSince(fake, n), []);
  assert.is(snapshot(fake), before);
  w.dispose();
});

test.run();
