import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { pullRequestsOf } from '../fake-bitbucket/pull-request-state.ts';
import { withFake } from './helpers/fake.ts';
import { assertPlan, assertSchema, fakePr, prWorld, snapshot, writesSince } from './helpers/pr.ts';

const test = suite('bbdc pr update, merge, decline, reopen, delete');
let fake: Awaited<ReturnType<typeof withFake>>;
test.before.each(async () => {
  fake = await withFake();
});
test.after.each(async () => {
  await fake.stop();
});

test('pr update changes title, draft and target, and keeps the reviewers the server would drop', async () => {
  const w = prWorld(fake);
  const r = await w.run([
    'pr',
    'update',
    '2',
    '--title',
    'Search API v2',
    '--draft',
    '--to',
    'feature/new',
    '--json',
  ]);
  assert.is(r.code, 0, r.stdout + r.stderr);
  const pr = r.json().data;
  assertSchema('pr', pr);
  assert.equal([pr.title, pr.draft, pr.to.branch, pr.version], ['Search API v2', true, 'feature/new', 4]);
  assert.equal(
    fakePr(fake, 2)
      .participants.filter((p) => p.role === 'REVIEWER')
      .map((p) => [p.name, p.status]),
    [['bob', 'APPROVED']],
  );
  const piped = prWorld(fake, 'alice', { stdin: 'Now with ranking.\n' });
  const human = await piped.run(['pr', 'update', '2', '--no-draft', '--description-file', '-']);
  piped.dispose();
  assert.is(human.code, 0, human.stderr);
  assert.match(human.stdout, 'Updated pull request #2: Search API v2 (feature/search → feature/new)');
  assert.equal([fakePr(fake, 2).draft, fakePr(fake, 2).description], [false, 'Now with ranking.']);
  const nothing = await w.run(['pr', 'update', '2']);
  assert.is(nothing.code, 2);
  assert.match(nothing.stderr, 'nothing to update: pass --title');
  w.dispose();
});

test('pr update --title alone leaves the description byte-identical, and the dry-run plans the PUT it sends', async () => {
  const text = 'Line one.\n\n  * keeps   spacing\r\n\u00e9\u{1F600} trailing  ';
  fakePr(fake, 1).description = text;
  const w = prWorld(fake);
  const dry = (await w.run(['pr', 'update', '1', '--title', 'Better title', '--dry-run', '--json'])).json()
    .data;
  const n = fake.requests.length;
  const r = await w.run(['pr', 'update', '1', '--title', 'Better title', '--json']);
  w.dispose();
  assert.is(r.code, 0, r.stderr);
  assert.is(fakePr(fake, 1).title, 'Better title');
  assert.is(fakePr(fake, 1).description, text);
  assert.is(r.json().data.description, text);
  const put = fake.requests.slice(n).find((q) => q.method === 'PUT')!;
  assert.equal([dry.action.method, dry.action.path, dry.action.body], [put.method, put.path, put.body]);
});

test('pr update --dry-run plans the PUT, reports no-op when nothing differs, and changes nothing', async () => {
  const w = prWorld(fake);
  const before = snapshot(fake);
  const n = fake.requests.length;
  const r = await w.run(['pr', 'update', '1', '--title', 'Login page', '--dry-run', '--json']);
  const plan = r.json().data;
  assertPlan(plan);
  assert.equal([plan.predictedAction, plan.action.method, plan.action.body.version], ['update', 'PUT', 0]);
  assert.match(plan.summary, 'would change title to "Login page" of pull request #1');
  const same = await w.run(['pr', 'update', '1', '--title', 'Add login page', '--dry-run', '--json']);
  assert.is(same.json().data.predictedAction, 'no-op');
  assert.equal(writesSince(fake, n), []);
  assert.is(snapshot(fake), before);
  w.dispose();
});

test('pr merge sends the version it read and the strategy; the pull request is merged', async () => {
  const w = prWorld(fake);
  const r = await w.run(['pr', 'merge', '1', '--strategy', 'squash', '--json']);
  assert.is(r.code, 0, r.stdout);
  assertSchema('pr', r.json().data);
  assert.is(r.json().data.state, 'MERGED');
  const sent = fake.requests.find((q) => q.operationId === 'merge')!;
  assert.is(sent.query.get('version'), '0');
  assert.is(fakePr(fake, 1).state, 'MERGED');
  const again = await w.run(['pr', 'merge', '1']);
  assert.is(again.code, 5);
  w.dispose();
});

test('a stale version is a conflict error (exit 5) and nothing is merged', async () => {
  const w = prWorld(fake);
  const r = await w.run(['pr', 'merge', '1', '--version', '7', '--json']);
  assert.is(r.code, 5);
  assert.equal(r.json().error.kind, 'conflict');
  assert.match(r.json().error.message, 'pull request #1 was not merged');
  assert.match(r.json().error.message, 'out-of-date information (version 7, current 0)');
  assert.is(fakePr(fake, 1).state, 'OPEN');
  w.dispose();
});

test('a vetoed merge is a conflict that lists the merge checks; the human form shows them', async () => {
  const w = prWorld(fake);
  const r = await w.run(['pr', 'merge', '2']);
  assert.is(r.code, 5);
  assert.match(r.stderr, 'pull request #2 was not merged');
  assert.match(r.stderr, '  - Not enough approvals: Requires 2 approvals, has 1.');
  const dry = await w.run(['pr', 'merge', '2', '--dry-run', '--json']);
  assert.equal(dry.json().data.predictedAction, 'conflict');
  assert.equal(dry.json().data.blockingReasons, ['Not enough approvals: Requires 2 approvals, has 1.']);
  const bad = await w.run(['pr', 'merge', '1', '--strategy', 'octopus']);
  assert.is(bad.code, 2);
  assert.match(bad.stderr, '--strategy "octopus" must be one of no-ff, ff, ff-only');
  w.dispose();
});

test('pr merge --dry-run predicts the merge and changes nothing', async () => {
  const w = prWorld(fake);
  const before = snapshot(fake);
  const n = fake.requests.length;
  const r = await w.run(['pr', 'merge', '1', '--dry-run', '--json']);
  const plan = r.json().data;
  assertPlan(plan);
  assert.equal(
    [plan.predictedAction, plan.action.path],
    ['update', '/rest/api/latest/projects/PROJ/repos/api/pull-requests/1/merge?version=0'],
  );
  const human = await w.run(['pr', 'merge', '1', '--dry-run']);
  assert.match(human.stdout, 'Dry run: would merge pull request #1 (feature/login into main)');
  assert.equal(writesSince(fake, n), []);
  assert.is(snapshot(fake), before);
  w.dispose();
});

test('pr decline and reopen move the state at the current version; wrong states are conflicts', async () => {
  const w = prWorld(fake);
  const d = await w.run(['pr', 'decline', '1', '--comment', 'Not now', '--json']);
  assert.is(d.code, 0, d.stdout);
  assertSchema('pr', d.json().data);
  assert.is(d.json().data.state, 'DECLINED');
  const r = await w.run(['pr', 'reopen', '1']);
  assert.is(r.code, 0, r.stderr);
  assert.match(r.stdout, 'Reopened pull request #1: Add login page (now OPEN)');
  assert.equal([fakePr(fake, 1).state, fakePr(fake, 1).version], ['OPEN', 2]);
  const twice = await w.run(['pr', 'reopen', '1']);
  assert.is(twice.code, 5);
  const dry = await w.run(['pr', 'decline', '3', '--dry-run', '--json']);
  assert.equal(dry.json().data.blockingReasons, ['pull request #3 is DECLINED; decline needs it OPEN']);
  w.dispose();
});

test('decline, reopen and delete --dry-run change nothing', async () => {
  const w = prWorld(fake);
  const before = snapshot(fake);
  const n = fake.requests.length;
  for (const argv of [
    ['pr', 'decline', '1'],
    ['pr', 'reopen', '3'],
    ['pr', 'delete', '2'],
  ]) {
    const r = await w.run([...argv, '--dry-run', '--json']);
    assert.is(r.code, 0, r.stdout);
    assertPlan(r.json().data);
    assert.is(r.json().data.blockingReasons.length, 0, argv.join(' '));
  }
  assert.equal(writesSince(fake, n), []);
  assert.is(snapshot(fake), before);
  w.dispose();
});

test('pr delete removes the pull request; a second delete is not found', async () => {
  const w = prWorld(fake);
  const r = await w.run(['pr', 'delete', '3', '--json']);
  assert.is(r.code, 0, r.stdout);
  assertSchema('pr-delete', r.json().data);
  assert.equal(r.json().data, { pullRequest: 3, repository: 'PROJ/api', deleted: true });
  assert.not.ok(pullRequestsOf(fake.state).pullRequests.some((p) => p.id === 3));
  const again = await w.run(['pr', 'delete', '3']);
  assert.is(again.code, 4);
  const human = await w.run(['pr', 'delete', '2']);
  assert.is(human.stdout, 'Deleted pull request #2 in PROJ/api\n');
  w.dispose();
});

test.run();
