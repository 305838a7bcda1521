import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { type FakeBuild, pullRequestsOf } from '../fake-bitbucket/pull-request-state.ts';
import { withFake } from './helpers/fake.ts';
import { assertPlan, assertSchema, fakePr, prWorld, snapshot, writesSince } from './helpers/pr.ts';

const test = suite('bbdc pr build status, checks and auto-merge');
let fake: Awaited<ReturnType<typeof withFake>>;
test.before.each(async () => {
  fake = await withFake();
});
test.after.each(async () => {
  await fake.stop();
});

const buildsOf = (id: number) => pullRequestsOf(fake.state).builds[fakePr(fake, id).fromCommit];
const build = (key: string, state: FakeBuild['state']): FakeBuild => ({
  key,
  name: key,
  state,
  url: `https://ci.example.test/${key}`,
  updated: 1_700_000_000_000,
});

/** Makes a build report `states` one after another, one per read, then stay at the last. */
function progressing(b: FakeBuild, states: FakeBuild['state'][]) {
  let reads = 0;
  Object.defineProperty(b, 'state', { get: () => states[Math.min(reads++, states.length - 1)] });
}

test("pr build status aggregates the latest commit's builds, in JSON and as a table", async () => {
  const w = prWorld(fake);
  const r = await w.run(['pr', 'build', 'status', '1', '--json']);
  assert.is(r.code, 0, r.stdout);
  const d = r.json().data;
  assertSchema('pr-build-status', d);
  assert.equal(
    [d.commit, d.state, d.summary],
    [fakePr(fake, 1).fromCommit, 'pending', { successful: 1, failed: 0, inProgress: 1, total: 2 }],
  );
  const human = await w.run(['pr', 'build', 'status', '1']);
  assert.is(
    human.stdout,
    'ci-build\tSUCCESSFUL\tBuild\thttps://ci.example.test/1\nci-test\tINPROGRESS\tTests\thttps://ci.example.test/2\npending: 1 successful, 0 failed, 1 in progress (commit 02020202020)\n',
  );
  const none = await w.run(['pr', 'build', 'status', '2']);
  assert.match(none.stdout, 'none: no builds reported for commit 04040404040');
  w.dispose();
});

test('pr checks exits 0 when all passed, 1 when one failed, 8 while pending', async () => {
  const w = prWorld(fake);
  assert.is((await w.run(['pr', 'checks', '1'])).code, 8);
  buildsOf(1)[1].state = 'SUCCESSFUL';
  const ok = await w.run(['pr', 'checks', '1', '--json']);
  assert.equal([ok.code, ok.json().data.state], [0, 'successful']);
  assertSchema('pr-checks', ok.json().data);
  buildsOf(1).push(build('lint', 'FAILED'));
  const failed = await w.run(['pr', 'checks', '1', '--wait']);
  assert.is(failed.code, 1);
  assert.match(failed.stdout, 'failed: 2 successful, 1 failed, 0 in progress');
  assert.equal(w.sleeps, [], 'a failure ends the wait at once');
  w.dispose();
});

test('pr checks --wait polls until the builds finish, then exits 0', async () => {
  const w = prWorld(fake);
  progressing(buildsOf(1)[1], ['INPROGRESS', 'INPROGRESS', 'SUCCESSFUL']);
  const r = await w.run(['pr', 'checks', '1', '--wait', '--interval', '5', '--json']);
  assert.is(r.code, 0, r.stdout);
  assert.equal([r.json().data.polls, r.json().data.timedOut, w.sleeps], [3, false, [5000, 5000]]);
  w.dispose();
});

test('pr checks --wait exits 8 when builds are still pending at the timeout', async () => {
  const w = prWorld(fake);
  const r = await w.run(['pr', 'checks', '1', '--wait', '--timeout', '25', '--interval', '10', '--json']);
  assert.is(r.code, 8);
  assert.equal([r.json().data.state, r.json().data.timedOut, r.json().data.polls], ['pending', true, 4]);
  assert.equal(w.sleeps, [10_000, 10_000, 5000], 'never sleeps past the timeout');
  const human = await w.run(['pr', 'checks', '2', '--wait', '--timeout', '1']);
  assert.is(human.code, 8, 'no builds reported yet counts as pending');
  assert.match(human.stderr, 'Still pending after waiting');
  const bad = await w.run(['pr', 'checks', '1', '--timeout', 'soon']);
  assert.equal([bad.code, bad.stderr], [2, 'error: --timeout "soon" must be a whole number of at least 1\n']);
  w.dispose();
});

test('auto-merge enable: POST .../merge with autoMerge (the 9.4 document); waits on vetoes; get shows it; disable turns it off', async () => {
  const w = prWorld(fake);
  assert.is(
    (await w.run(['pr', 'auto-merge', 'get', '2'])).stdout,
    'Auto-merge is off for pull request #2.\n',
  );
  const on = await w.run(['pr', 'auto-merge', 'enable', '2', '--strategy', 'squash', '--json']);
  assert.is(on.code, 0, on.stdout);
  assertSchema('pr-auto-merge', on.json().data);
  assert.equal(
    [on.json().data.enabled, on.json().data.outcome, on.json().data.state],
    [true, 'VETOED', 'OPEN'],
  );
  assert.equal(fakePr(fake, 2).autoMerge?.strategyId, 'squash');
  const sent = fake.requests.filter((q) => q.method === 'POST').at(-1)!;
  assert.equal(
    [sent.operationId, sent.query.get('version'), sent.body],
    ['merge', String(fakePr(fake, 2).version), { autoMerge: true, strategyId: 'squash' }],
  );
  const get = await w.run(['pr', 'auto-merge', 'get', '2', '--json']);
  assertSchema('pr-auto-merge', get.json().data);
  assert.equal([get.json().data.enabled, get.json().data.strategy], [true, 'squash']);
  assert.match(
    (await w.run(['pr', 'auto-merge', 'get', '2'])).stdout,
    'Auto-merge is on for pull request #2 (squash): it merges when its merge checks pass.',
  );
  const off = await w.run(['pr', 'auto-merge', 'disable', '2', '--json']);
  assertSchema('pr-auto-merge', off.json().data);
  assert.equal([off.json().data.enabled, fakePr(fake, 2).autoMerge], [false, undefined]);
  const now = await w.run(['pr', 'auto-merge', 'enable', '1']);
  assert.is(now.stdout, 'Pull request #1 could merge at once and was merged.\n');
  assert.is(fakePr(fake, 1).state, 'MERGED');
  const missing = await w.run(['pr', 'auto-merge', 'get', '99']);
  assert.is(missing.code, 4, 'a missing pull request is not "auto-merge off"');
  w.dispose();
});

test('auto-merge enable and disable --dry-run plan and change nothing', async () => {
  const w = prWorld(fake);
  const before = snapshot(fake);
  const n = fake.requests.length;
  const enable = (
    await w.run(['pr', 'auto-merge', 'enable', '1', '--strategy', 'ff', '--dry-run', '--json'])
  ).json().data;
  assertPlan(enable);
  assert.equal(
    [enable.predictedAction, enable.action.body],
    ['update', { autoMerge: true, strategyId: 'ff' }],
  );
  assert.ok(enable.reasons.includes('its merge checks pass now, so the server would merge it at once'));
  const disable = (await w.run(['pr', 'auto-merge', 'disable', '1', '--dry-run', '--json'])).json().data;
  assert.equal(disable.predictedAction, 'no-op');
  const human = await w.run(['pr', 'auto-merge', 'enable', '2', '--dry-run']);
  assert.match(human.stdout, 'Dry run: would turn on auto-merge for pull request #2');
  assert.equal(writesSince(fake, n), []);
  assert.is(snapshot(fake), before);
  w.dispose();
});

test.run();
