import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { withFake } from './helpers/fake.ts';
import { assertSchema, fakePr, prWorld } from './helpers/pr.ts';

const test = suite('bbdc pr list, get, mergeability');
let fake: Awaited<ReturnType<typeof withFake>>;
test.before(async () => {
  fake = await withFake();
});
test.after(async () => {
  await fake.stop();
});

test('pr list shows open pull requests newest first, in a table and as JSON', async () => {
  const w = prWorld(fake);
  const r = await w.run(['pr', 'list', '--json']);
  assert.is(r.code, 0, r.stdout + r.stderr);
  const data = r.json().data;
  assertSchema('pr-list', data);
  assert.equal(
    data.pullRequests.map((p: any) => [p.id, p.state, p.from.branch, p.to.branch]),
    [
      [2, 'OPEN', 'feature/search', 'main'],
      [1, 'OPEN', 'feature/login', 'main'],
    ],
  );
  assert.equal(data.pullRequests[0].reviewers, [
    { name: 'bob', displayName: 'Bob Reader', role: 'REVIEWER', status: 'APPROVED' },
  ]);
  const human = await w.run(['pr', 'list']);
  assert.is(
    human.stdout,
    '#2\tSearch API\talice\tfeature/search → main\tOPEN\t1/1\n#1\tAdd login page\tbob\tfeature/login → main\tOPEN\t0/0\n',
  );
  w.dispose();
});

test('pr list filters by state, source, target and role; --limit caps and says so', async () => {
  const w = prWorld(fake);
  const ids = async (...args: string[]) => {
    const r = await w.run(['pr', 'list', ...args, '--json']);
    assert.is(r.code, 0, r.stdout);
    return r.json().data.pullRequests.map((p: any) => p.id);
  };
  assert.equal(await ids('--state', 'declined'), [3]);
  assert.equal(await ids('--state', 'all'), [3, 2, 1]);
  assert.equal(await ids('--source', 'feature/login'), [1]);
  assert.equal(await ids('--target', 'main', '--source', 'refs/heads/feature/search'), [2]);
  assert.equal(await ids('--target', 'develop'), []);
  assert.equal(await ids('--role', 'author'), [2], 'alice wrote #2');
  assert.equal(await ids('--role', 'reviewer'), []);
  const capped = await w.run(['pr', 'list', '--state', 'all', '--limit', '2', '--json']);
  assert.equal([capped.json().data.count, capped.json().data.truncated], [2, true]);
  const bad = await w.run(['pr', 'list', '--state', 'closed']);
  assert.is(bad.code, 2);
  assert.match(bad.stderr, '--state "closed" must be one of open, merged, declined, all');
  // A repository that does not exist is not found (exit 4), never an empty list.
  const missing = await w.run(['pr', 'list', '-R', 'PROJ/nope']);
  assert.is(missing.code, 4, missing.stdout);
  assert.match(missing.stderr, 'Repository PROJ/nope does not exist.');
  w.dispose();
});

test('pr list --mine reads the dashboard across repositories, with --role', async () => {
  const w = prWorld(fake, 'bob');
  const r = await w.run(['pr', 'list', '--mine', '--state', 'all', '--json']);
  assert.is(r.code, 0, r.stdout);
  assertSchema('pr-list', r.json().data);
  assert.equal(
    r.json().data.pullRequests.map((p: any) => [p.repository, p.id]),
    [
      ['PROJ/api', 3],
      ['PROJ/api', 2],
      ['PROJ/api', 1],
    ],
  );
  const reviewing = await w.run(['pr', 'list', '--mine', '--role', 'reviewer', '--json']);
  assert.equal(
    reviewing.json().data.pullRequests.map((p: any) => p.id),
    [2],
  );
  assert.ok(
    fake.requests.some((q) => q.operationId === 'getPullRequests_1' && q.query.get('role') === 'REVIEWER'),
  );
  w.dispose();
});

test('pr get shows the pull request with a mergeability block built from the vetoes', async () => {
  const w = prWorld(fake);
  const r = await w.run(['pr', 'get', '2', '--json']);
  assert.is(r.code, 0, r.stdout);
  const data = r.json().data;
  assertSchema('pr', data);
  assert.equal(data.mergeability, {
    known: true,
    mergeable: false,
    outcome: 'CLEAN',
    conflicted: false,
    blockers: [{ summary: 'Not enough approvals', detail: 'Requires 2 approvals, has 1.' }],
  });
  assert.equal([data.version, data.author.name, data.createdDate], [3, 'alice', '2023-11-14T22:13:30.000Z']);
  const human = await w.run(['pr', 'get', '#2']);
  assert.match(
    human.stdout,
    '#2 Search API\nOPEN · alice wants to merge feature/search into main · PROJ/api · version 3',
  );
  assert.match(human.stdout, 'Reviewers: bob (approved)');
  assert.match(
    human.stdout,
    'Mergeable: no: 1 merge check(s) failed\n  blocked: Not enough approvals: Requires 2 approvals, has 1.',
  );
  const login = await w.run(['pr', 'get', '1']);
  assert.match(login.stdout, 'Mergeable: yes');
  assert.match(login.stdout, '\n  Adds a login form.\n');
  w.dispose();
});

test('when the merge check answers 404 or 409 the block says unknown instead of failing', async () => {
  const w = prWorld(fake);
  for (const status of [404, 409] as const) {
    fakePr(fake, 1).mergeStatus = status;
    const r = await w.run(['pr', 'get', '1', '--json']);
    assert.is(r.code, 0, r.stdout);
    const m = r.json().data.mergeability;
    assert.equal([m.known, m.mergeable, m.outcome, m.conflicted], [false, null, 'UNKNOWN', null]);
    assert.match(m.reason, `the server answered ${status}`);
    const own = await w.run(['pr', 'mergeability', '1', '--json']);
    assert.is(own.code, 0);
    assertSchema('pr-mergeability', own.json().data);
    assert.is(own.json().data.known, false);
    const human = await w.run(['pr', 'mergeability', '1']);
    assert.match(human.stdout, `Mergeable: unknown (the server answered ${status}`);
  }
  fakePr(fake, 1).mergeStatus = undefined;
  w.dispose();
});

test('pr mergeability reports conflicts; a missing pull request is not found (exit 4); a bad id is usage', async () => {
  const w = prWorld(fake);
  fakePr(fake, 1).conflicted = true;
  const r = await w.run(['pr', 'mergeability', '1', '--json']);
  assert.equal(
    [r.json().data.mergeable, r.json().data.conflicted, r.json().data.outcome],
    [false, true, 'CONFLICTED'],
  );
  assert.match(
    (await w.run(['pr', 'mergeability', '1'])).stdout,
    'Mergeable: no: conflicts with the target branch',
  );
  fakePr(fake, 1).conflicted = false;
  const missing = await w.run(['pr', 'get', '99']);
  assert.is(missing.code, 4);
  assert.match(missing.stderr, 'Pull request 99 does not exist');
  const bad = await w.run(['pr', 'get', 'abc']);
  assert.is(bad.code, 2);
  assert.match(bad.stderr, 'pull request id "abc" must be a whole number such as 42');
  w.dispose();
});

test.run();
