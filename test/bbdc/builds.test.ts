import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { opsState, seededCommit, snapshotOps } from '../fake-bitbucket/ops-state.ts';
import { credentials } from '../fake-bitbucket/state.ts';
import { runAgainst, withFake } from './helpers/fake.ts';

const test = suite('bbdc build');
let fake: Awaited<ReturnType<typeof withFake>>;
test.before(async () => {
  fake = await withFake();
});
test.after(async () => {
  await fake.stop();
});
const run = runAgainst(() => fake);
const writes = (from: number) => fake.requests.slice(from).filter((q) => q.method !== 'GET');
const other = 'b'.repeat(40);

test('build status get lists every status of a commit, newest first, with counts', async () => {
  const human = await run(['build', 'status', 'get', seededCommit]);
  assert.is(human.code, 0, human.stderr);
  assert.is(
    human.stdout,
    'ci-build\tSUCCESSFUL\tCI #41\thttps://ci.example.test/builds/41\nlint\tFAILED\tLint\thttps://ci.example.test/lint/7\n',
  );
  assert.match(human.stderr, '1 successful, 1 failed, 0 in progress');
  const json = (await run(['build', 'status', 'get', seededCommit, '--json'])).json().data;
  assert.equal(json.counts, { successful: 1, failed: 1, inProgress: 0, other: 0 });
  assert.equal(json.statuses[0], {
    key: 'ci-build',
    state: 'SUCCESSFUL',
    url: 'https://ci.example.test/builds/41',
    name: 'CI #41',
    ref: 'refs/heads/main',
    buildNumber: '41',
    repository: 'PROJ/api',
    updatedDate: '2023-11-14T22:14:20.000Z',
  });
  const path = fake.requests.findLast((q) => q.path.includes('/build-status/'))!.path;
  assert.is(path, `/rest/build-status/latest/commits/${seededCommit}`);
});

test('build status get also shows the statuses the pull-request data seeds on a commit', async () => {
  const data = (await run(['build', 'status', 'get', '02'.repeat(20), '--json'])).json().data;
  assert.equal(
    data.statuses.map((s: { key: string; state: string }) => [s.key, s.state]),
    [
      ['ci-test', 'INPROGRESS'],
      ['ci-build', 'SUCCESSFUL'],
    ],
  );
});

test('build status get --key reads one status from the repository; a missing key is not found', async () => {
  const one = (
    await run(['build', 'status', 'get', seededCommit, '--key', 'lint', '-R', 'PROJ/api', '--json'])
  ).json().data;
  assert.equal(
    one.statuses.map((s: { key: string }) => s.key),
    ['lint'],
  );
  assert.equal(one.counts.failed, 1);
  const missing = await run(['build', 'status', 'get', seededCommit, '--key', 'nope', '-R', 'PROJ/api']);
  assert.is(missing.code, 4);
  assert.match(missing.stderr, 'No build status with key nope');
  const empty = await run(['build', 'status', 'get', other]);
  assert.equal([empty.code, empty.stdout], [0, '']);
  assert.match(empty.stderr, `No build statuses for ${other}.`);
});

test('build status set stores INPROGRESS, then SUCCESSFUL under the same key', async () => {
  const args = [
    'build',
    'status',
    'set',
    other,
    '-R',
    'PROJ/web',
    '--key',
    'ci',
    '--url',
    'https://ci.test/9',
  ];
  const started = await run([
    ...args,
    '--state',
    'INPROGRESS',
    '--name',
    'CI #9',
    '--ref',
    'refs/heads/main',
  ]);
  assert.is(started.code, 0, started.stderr);
  assert.is(started.stdout, `Set ci to INPROGRESS on ${other.slice(0, 12)} in PROJ/web\n`);
  const done = (await run([...args, '--state', 'SUCCESSFUL', '--json'])).json().data;
  assert.equal(done.status.state, 'SUCCESSFUL');
  assert.is(done.repository, 'PROJ/web');
  const stored = opsState(fake.state).buildStatuses.filter((s) => s.commit === other);
  assert.equal(
    stored.map((s) => [s.repo, s.key, s.state]),
    [['PROJ/web', 'ci', 'SUCCESSFUL']],
  );
  const post = fake.requests.findLast((q) => q.method === 'POST')!;
  assert.is(post.path, `/rest/api/latest/projects/PROJ/repos/web/commits/${other}/builds`);
});

test('build status set checks its flags before sending anything', async () => {
  const n = fake.requests.length;
  const base = ['build', 'status', 'set', other, '-R', 'PROJ/web'];
  const cases: [string[], string][] = [
    [
      ['build', 'status', 'set', 'main', '--state', 'FAILED', '--key', 'k', '--url', 'https://x.test'],
      'commit "main" is not a full 40-character commit id',
    ],
    [[...base, '--key', 'k', '--url', 'https://x.test'], '--state SUCCESSFUL|FAILED|INPROGRESS is required'],
    [
      [...base, '--state', 'DONE', '--key', 'k', '--url', 'https://x.test'],
      '--state "DONE" must be one of SUCCESSFUL, FAILED, INPROGRESS',
    ],
    [[...base, '--state', 'FAILED', '--url', 'https://x.test'], '--key KEY is required'],
    [
      [...base, '--state', 'FAILED', '--key', 'k', '--url', 'x.test'],
      '--url "x.test" must be an http:// or https:// URL',
    ],
    [
      [...base, '--state', 'FAILED', '--key', 'k', '--url', 'https://x.test', '--ref', 'main'],
      '--ref "main" must be a full ref name, e.g. refs/heads/main',
    ],
  ];
  for (const [argv, message] of cases) {
    const r = await run(argv);
    assert.is(r.code, 2, argv.join(' '));
    assert.match(r.stderr, message);
  }
  assert.is(fake.requests.length, n);
});

test('build required list, create and delete', async () => {
  const list = await run(['build', 'required', 'list', '-R', 'PROJ/api']);
  assert.is(list.stdout, '1\tci-build\tmain\t\n');
  const created = await run([
    'build',
    'required',
    'create',
    '-R',
    'PROJ/api',
    '--builds',
    'ci,lint',
    '--branch',
    'pattern:release/*',
    '--exempt',
    'category:hotfix',
    '--json',
  ]);
  assert.is(created.code, 0, created.stdout);
  const check = created.json().data.check;
  assert.equal(check, {
    id: check.id,
    buildKeys: ['ci', 'lint'],
    branches: 'pattern:release/*',
    exempt: 'category:HOTFIX',
  });
  const stored = opsState(fake.state).requiredBuilds.find((c) => c.id === check.id)!;
  assert.equal(stored.refMatcher, { id: 'release/*', displayId: 'release/*', type: { id: 'PATTERN' } });
  const all = (await run(['build', 'required', 'list', '-R', 'PROJ/api', '--json'])).json().data;
  assert.is(all.count, 2);
  const deleted = await run(['build', 'required', 'delete', String(check.id), '-R', 'PROJ/api']);
  assert.is(deleted.stdout, `Deleted required-builds check ${check.id} of PROJ/api.\n`);
  assert.not.ok(opsState(fake.state).requiredBuilds.some((c) => c.id === check.id));
  const bad = await run([
    'build',
    'required',
    'create',
    '-R',
    'PROJ/api',
    '--builds',
    'ci',
    '--branch',
    'weird branch',
  ]);
  assert.is(bad.code, 2);
  assert.match(bad.stderr, '--branch "weird branch" is not a ref matcher');
  const bob = await run(
    ['build', 'required', 'create', '-R', 'PROJ/api', '--builds', 'ci', '--json'],
    credentials.bob.token,
  );
  assert.equal([bob.code, bob.json().error.kind], [3, 'auth']);
});

test('--dry-run plans status set and required create/delete without changing anything', async () => {
  const before = snapshotOps(fake.state);
  const n = fake.requests.length;
  const set = (
    await run([
      'build',
      'status',
      'set',
      seededCommit,
      '-R',
      'PROJ/api',
      '--state',
      'SUCCESSFUL',
      '--key',
      'lint',
      '--url',
      'https://ci.example.test/lint/7',
      '--dry-run',
      '--json',
    ])
  ).json().data;
  assert.is(set.predictedAction, 'update');
  assert.match(set.reasons[1], 'build lint is FAILED; changes: state');
  const fresh = (
    await run([
      'build',
      'status',
      'set',
      seededCommit,
      '-R',
      'PROJ/api',
      '--state',
      'FAILED',
      '--key',
      'new',
      '--url',
      'https://x.test',
      '--dry-run',
      '--json',
    ])
  ).json().data;
  assert.is(fresh.predictedAction, 'create');
  const same = await run([
    'build',
    'required',
    'create',
    '-R',
    'PROJ/api',
    '--builds',
    'ci-build',
    '--branch',
    'main',
    '--dry-run',
  ]);
  assert.match(same.stdout, 'nothing to do');
  const create = (
    await run(['build', 'required', 'create', '-R', 'PROJ/api', '--builds', 'x', '--dry-run', '--json'])
  ).json().data;
  assert.equal(
    [create.predictedAction, create.action.path],
    ['create', '/rest/required-builds/latest/projects/PROJ/repos/api/condition'],
  );
  const del = (
    await run(['build', 'required', 'delete', '1', '-R', 'PROJ/api', '--dry-run', '--json'])
  ).json().data;
  assert.equal([del.predictedAction, del.reasons[1]], ['delete', 'check 1 requires ci-build on main']);
  const gone = (
    await run(['build', 'required', 'delete', '77', '-R', 'PROJ/api', '--dry-run', '--json'])
  ).json().data;
  assert.is(gone.predictedAction, 'no-op');
  assert.equal(writes(n), []);
  assert.is(snapshotOps(fake.state), before);
});

test.run();
