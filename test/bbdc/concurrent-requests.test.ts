// Requests that do not depend on each other are sent together: with a slow server (latencyMs), a request that was
// sent before the answer of another arrived overlaps it. Sent one after the other, none would.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { RecordedRequest } from '../fake-bitbucket/server.ts';
import { credentials } from '../fake-bitbucket/state.ts';
import { withFake } from './helpers/fake.ts';
import { assertSchema, fakePr, prWorld } from './helpers/pr.ts';
import { createWorld, git, repoWithRemotes } from './helpers/world.ts';

const test = suite('bbdc: independent requests are sent together');
let fake: Awaited<ReturnType<typeof withFake>>;
test.before(async () => {
  // Long enough that git's two short runs (the branch, the remotes) finish within one answer on a loaded machine.
  fake = await withFake('small', { latencyMs: 150 });
  fakePr(fake, 1).participants.push({ name: 'alice', role: 'REVIEWER', status: 'UNAPPROVED' });
});
test.after(async () => {
  await fake.stop();
});

/** Runs `argv` and returns the operations it sent, in the order they arrived, with their timing. */
async function sent(argv: string[], world = prWorld(fake)) {
  const n = fake.requests.length;
  const r = await world.run(argv);
  world.dispose();
  assert.ok([0, 8].includes(r.code), r.stderr); // pr checks: 8 while builds are pending
  return { r, requests: fake.requests.slice(n) };
}

/** The operations sent while `a`'s answer was still awaited. */
const overlapping = (requests: RecordedRequest[], a: string) => {
  const first = requests.find((q) => q.operationId === a)!;
  return requests
    .filter((q) => q !== first && (q.receivedAt ?? 0) < (first.answeredAt ?? 0))
    .map((q) => q.operationId);
};

test('pr get asks for the pull request and its mergeability at once', async () => {
  const { requests } = await sent(['pr', 'get', '1', '--json']);
  assert.equal(requests.map((q) => q.operationId).sort(), ['canMerge', 'get_3']);
  assert.equal(overlapping(requests, 'get_3'), ['canMerge']);
});

test('pr checks asks for the builds and the Code Insights reports of the commit at once', async () => {
  const { requests } = await sent(['pr', 'checks', '1', '--json']);
  const ops = requests.map((q) => q.operationId);
  assert.is(ops[0], 'get_3', 'the commit is read first');
  assert.is(ops.length, 3, ops.join(', '));
  assert.equal(overlapping(requests.slice(1), ops[1]!), [ops[2]]);
});

test('pr status sends both dashboards and the current branch lookup together, in a clone', async () => {
  const w = createWorld({ env: { BBDC_TOKEN: credentials.alice.token } });
  const clone = repoWithRemotes(w.dir, 'api', { origin: `${fake.url}/scm/proj/api.git` });
  git(clone, 'checkout', '-q', '-b', 'feature/login');
  w.cwd = clone;
  const { r, requests } = await sent(['pr', 'status', '--json'], w);
  const ops = requests.map((q) => q.operationId);
  assert.equal(ops.slice(0, 3).sort(), ['getPage', 'getPullRequests_1', 'getPullRequests_1']);
  assert.is(ops[3], 'getMultipleBuildStatusStats');
  assert.is(overlapping(requests, 'getPullRequests_1').length, 2);
  const lookup = requests.find((q) => q.operationId === 'getPage')!;
  assert.equal(
    [lookup.path, lookup.query.get('at'), lookup.query.get('direction')],
    ['/rest/api/latest/projects/PROJ/repos/api/pull-requests', 'refs/heads/feature/login', 'OUTGOING'],
  );
  const d = r.json().data;
  assertSchema('pr-status', d);
  assert.equal(
    [d.currentBranch.repository, d.currentBranch.branch, d.currentBranch.pullRequest.id],
    ['PROJ/api', 'feature/login', 1],
  );
});

test('pr status on a branch without a pull request says so; outside a clone it shows no such section', async () => {
  const w = prWorld(fake, 'alice', { tty: true });
  const clone = repoWithRemotes(w.dir, 'api', {});
  git(clone, 'checkout', '-q', '-b', 'topic/none');
  w.cwd = clone;
  const { r } = await sent(['pr', 'status', '--no-color'], w);
  assert.match(r.stdout, /^Current branch \(topic\/none in PROJ\/api\)\n {2}none\n\nYour pull requests\n/);
  const outside = await sent(['pr', 'status', '--json']);
  assert.is(outside.r.json().data.currentBranch, undefined);
  assert.not.ok(outside.requests.some((q) => q.operationId === 'getPage'));
});

test('pr files and pr diff fetch the changes once', async () => {
  for (const argv of [
    ['pr', 'files', '1', '--json'],
    ['pr', 'diff', '1', '--json'],
  ]) {
    const { requests } = await sent(argv);
    const changes = requests.filter((q) => q.path.endsWith('/changes'));
    assert.is(changes.length, 1, `${argv[1]}: ${changes.length} requests for the changes`);
  }
  const { requests } = await sent(['pr', 'diff', '1', '--json']);
  assert.equal(overlapping(requests, 'get_3'), [
    requests.find((q) => q.path.endsWith('/changes'))?.operationId,
  ]);
});

test('pr reviewer add reads the pull request and looks the user up at once; pr create the reviewers and the target', async () => {
  const { requests } = await sent(['pr', 'reviewer', 'add', '2', 'bob', '--json']);
  const lookup = requests.find((q) => q.path.endsWith('/users') || q.path.includes('/users/'))!;
  assert.ok(lookup, requests.map((q) => q.path).join(', '));
  assert.ok(overlapping(requests, 'get_3').includes(lookup.operationId));
  const w = prWorld(fake);
  const { requests: create } = await sent(
    ['pr', 'create', '-t', 'T', '--from', 'bugfix/crash', '-r', 'bob', '--json'],
    w,
  );
  const users = create.find((q) => q.path.endsWith('/users') || q.path.includes('/users/'))!;
  const target = create.find((q) => q.path.endsWith('/default-branch'))!;
  assert.ok(
    (users.receivedAt ?? 0) < (target.answeredAt ?? 0) && (target.receivedAt ?? 0) < (users.answeredAt ?? 0),
    'the reviewer lookup and the default branch were asked for together',
  );
});

test('pr checks shows the builds when only the Code Insights call fails, and says why reports are missing', async () => {
  fake.inject({ status: 500, times: 4, path: '/insights/' });
  const w = prWorld(fake);
  const r = await w.run(['pr', 'checks', '1', '--json']);
  w.dispose();
  const d = r.json().data;
  assertSchema('pr-checks', d);
  assert.equal([r.code, d.state, d.builds.length, d.reports], [8, 'pending', 2, []]);
  assert.match(d.reportsError, /500/);
  fake.inject({ status: 500, times: 4, path: '/insights/' });
  const human = await prWorld(fake).run(['pr', 'checks', '1']);
  assert.match(human.stdout, 'ci-build\tSUCCESSFUL');
  assert.match(human.stderr, 'Code Insights reports could not be read');
});

test.run();
