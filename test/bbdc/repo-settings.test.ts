import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { opsState, snapshotOps } from '../fake-bitbucket/ops-state.ts';
import { repoSettingsRoutes } from '../fake-bitbucket/routes/repo-settings.ts';
import { startFakeBitbucket } from '../fake-bitbucket/server.ts';
import { credentials } from '../fake-bitbucket/state.ts';
import { withFake } from './helpers/fake.ts';
import { createWorld } from './helpers/world.ts';

const test = suite('bbdc repo settings');
let fake: Awaited<ReturnType<typeof withFake>>;
test.before(async () => {
  fake = await withFake();
});
test.after(async () => {
  await fake.stop();
});
const run = async (argv: string[], url = fake.url, token = credentials.alice.token) => {
  const w = createWorld({ env: { BBDC_URL: url, BBDC_TOKEN: token } });
  try {
    return await w.run(argv);
  } finally {
    w.dispose();
  }
};
const writes = (from: number) => fake.requests.slice(from).filter((q) => q.method !== 'GET');

/** A fake whose pull request settings route records each body it is sent. */
async function recordingFake(form: 'integer' | 'object') {
  const bodies: unknown[] = [];
  const route = repoSettingsRoutes.updatePullRequestSettings_1;
  const server = await startFakeBitbucket({
    routes: {
      updatePullRequestSettings_1: {
        auth: route.auth,
        handle: (ctx) => {
          bodies.push(ctx.body);
          return route.handle(ctx);
        },
      },
    },
  });
  opsState(server.state).requiredApproversForm = form;
  return { server, bodies };
}

test('pull-requests get: a settings table, and the same in --json for either required-approvers form', async () => {
  const human = await run(['repo', 'settings', 'pull-requests', 'get', '-R', 'OPS/tools']);
  assert.is(human.code, 0, human.stderr);
  assert.match(human.stdout, 'default merge strategy\tno-ff (default)\n');
  assert.match(human.stdout, 'required approvers\toff\n');
  const { server } = await recordingFake('object');
  opsState(server.state).prSettings['PROJ/api'] = {
    defaultStrategy: 'squash',
    strategies: ['squash', 'no-ff'],
    requiredApprovers: 2,
    requiredAllApprovers: true,
    requiredAllTasksComplete: false,
    requiredSuccessfulBuilds: 1,
  };
  const json = (
    await run(['repo', 'settings', 'pull-requests', 'get', '-R', 'PROJ/api', '--json'], server.url)
  ).json();
  assert.equal(json.data, {
    repository: 'PROJ/api',
    mergeStrategy: { default: 'squash', enabled: ['squash', 'no-ff'], source: 'repository' },
    requiredApprovers: 2,
    requiredAllApprovers: true,
    requiredAllTasksComplete: false,
    requiredSuccessfulBuilds: 1,
  });
  await server.close();
  assert.equal(server.violations, []);
});

test('required approvers: the object form first, the integer form after the known 400', async () => {
  const { server, bodies } = await recordingFake('integer');
  const r = await run(
    [
      'repo',
      'settings',
      'pull-requests',
      'update',
      '-R',
      'PROJ/api',
      '--required-approvers',
      '2',
      '--all-tasks-complete',
      'true',
      '--json',
    ],
    server.url,
  );
  assert.is(r.code, 0, r.stdout);
  assert.equal(bodies, [
    { requiredApprovers: { enabled: true, count: '2' }, requiredAllTasksComplete: true },
    { requiredApprovers: 2, requiredAllTasksComplete: true },
  ]);
  assert.equal([r.json().data.requiredApprovers, r.json().data.requiredApproversForm], [2, 'integer']);
  assert.equal(opsState(server.state).prSettings['PROJ/api'].requiredApprovers, 2);
  await server.close();
  assert.equal(server.violations, []);
});

test('a server that takes the object form gets one request; other settings never retry', async () => {
  const { server, bodies } = await recordingFake('object');
  const r = await run(
    ['repo', 'settings', 'pull-requests', 'update', '-R', 'PROJ/api', '--required-approvers', '0'],
    server.url,
  );
  assert.is(r.code, 0, r.stderr);
  assert.equal(bodies, [{ requiredApprovers: { enabled: false, count: '0' } }]);
  assert.match(r.stdout, 'required approvers\toff\n');
  const strategy = await run(
    ['repo', 'settings', 'pull-requests', 'update', '-R', 'PROJ/api', '--merge-strategy', 'squash', '--json'],
    server.url,
  );
  assert.equal(bodies.at(-1), {
    mergeConfig: { defaultStrategy: { id: 'squash' }, strategies: [{ id: 'no-ff' }, { id: 'squash' }] },
  });
  assert.equal(strategy.json().data.mergeStrategy, {
    default: 'squash',
    enabled: ['no-ff', 'squash'],
    source: 'repository',
  });
  assert.is(strategy.json().data.requiredApproversForm, undefined);
  await server.close();
  assert.equal(server.violations, []);
});

test('pull-requests update names the bad flag; a reader is refused', async () => {
  const cases: [string[], string][] = [
    [
      ['--required-approvers', 'two'],
      '--required-approvers "two" must be a whole number (0 turns the check off)',
    ],
    [['--merge-strategies', 'squash,yolo'], '--merge-strategies "squash,yolo" must list strategies from'],
    [
      ['--merge-strategy', 'ff', '--merge-strategies', 'squash'],
      '--merge-strategy ff must be one of --merge-strategies squash',
    ],
    [[], 'nothing to change'],
  ];
  for (const [flags, message] of cases) {
    const r = await run(['repo', 'settings', 'pull-requests', 'update', '-R', 'PROJ/api', ...flags]);
    assert.is(r.code, 2, flags.join(' '));
    assert.match(r.stderr, message);
  }
  const bob = await run(
    ['repo', 'settings', 'pull-requests', 'update', '-R', 'PROJ/api', '--all-approvers', 'true', '--json'],
    fake.url,
    credentials.bob.token,
  );
  assert.equal([bob.code, bob.json().error.kind], [3, 'auth']);
});

test('auto-merge and auto-decline: get shows where the setting comes from, set and delete change the repository', async () => {
  assert.is(
    (await run(['repo', 'settings', 'auto-merge', 'get', '-R', 'PROJ/web'])).stdout,
    'auto-merge for PROJ/web: on (set on the project)\n',
  );
  const off = (await run(['repo', 'settings', 'auto-merge', 'set', 'off', '-R', 'PROJ/web', '--json'])).json()
    .data;
  assert.equal(off, { repository: 'PROJ/web', enabled: false, source: 'repository' });
  assert.is(opsState(fake.state).autoMerge['PROJ/web'], false);
  const del = await run(['repo', 'settings', 'auto-merge', 'delete', '-R', 'PROJ/web', '--json']);
  assert.equal(del.json().data, {
    repository: 'PROJ/web',
    deleted: true,
    effective: { enabled: true, source: 'project' },
  });
  const on = await run(['repo', 'settings', 'auto-decline', 'set', 'on', '--weeks', '2', '-R', 'PROJ/web']);
  assert.is(on.stdout, 'auto-decline for PROJ/web: on after 2 weeks (set on the repository)\n');
  assert.equal(opsState(fake.state).autoDecline['PROJ/web'], { enabled: true, inactivityWeeks: 2 });
  const got = (await run(['repo', 'settings', 'auto-decline', 'get', '-R', 'PROJ/web', '--json'])).json()
    .data;
  assert.equal(got, { repository: 'PROJ/web', enabled: true, source: 'repository', inactivityWeeks: 2 });
  const removed = await run(['repo', 'settings', 'auto-decline', 'delete', '-R', 'PROJ/web']);
  assert.is(
    removed.stdout,
    'Removed the auto-decline setting of PROJ/web; now off (set on the server, the default).\n',
  );
  const bad = await run(['repo', 'settings', 'auto-decline', 'set', 'yes', '-R', 'PROJ/web']);
  assert.match(bad.stderr, 'state "yes" must be on or off');
  const weeks = await run([
    'repo',
    'settings',
    'auto-decline',
    'set',
    'on',
    '--weeks',
    '3',
    '-R',
    'PROJ/web',
  ]);
  assert.match(weeks.stderr, '--weeks "3" must be one of 1, 2, 4, 8, 12');
});

test('reviewer groups: list, create with real users, delete', async () => {
  assert.is(
    (await run(['repo', 'settings', 'reviewer-groups', 'list', '-R', 'PROJ/api'])).stdout,
    '1\tbackend\talice,bob\tBackend team\n',
  );
  const created = await run([
    'repo',
    'settings',
    'reviewer-groups',
    'create',
    'ops',
    '--users',
    'alice',
    '-R',
    'PROJ/api',
    '--json',
  ]);
  assert.is(created.code, 0, created.stdout);
  const group = created.json().data.group;
  assert.equal(group, { id: group.id, name: 'ops', users: ['alice'] });
  const unknown = await run([
    'repo',
    'settings',
    'reviewer-groups',
    'create',
    'x',
    '--users',
    'alice,zed',
    '-R',
    'PROJ/api',
  ]);
  assert.equal([unknown.code, unknown.stderr], [2, 'error: user "zed" does not exist on the server\n']);
  assert.not.ok(
    opsState(fake.state).reviewerGroups.some((g) => g.name === 'x'),
    'nothing half-created',
  );
  const dup = await run([
    'repo',
    'settings',
    'reviewer-groups',
    'create',
    'ops',
    '--users',
    'bob',
    '-R',
    'PROJ/api',
  ]);
  assert.is(dup.code, 5);
  const del = await run([
    'repo',
    'settings',
    'reviewer-groups',
    'delete',
    String(group.id),
    '-R',
    'PROJ/api',
  ]);
  assert.is(del.stdout, `Deleted reviewer group ${group.id} of PROJ/api.\n`);
  assert.equal(
    opsState(fake.state).reviewerGroups.map((g) => g.name),
    ['backend'],
  );
});

test('default reviewers: list, create with matchers and approvals, delete', async () => {
  const list = (
    await run(['repo', 'settings', 'default-reviewers', 'list', '-R', 'PROJ/api', '--json'])
  ).json().data;
  assert.equal(list.conditions, [
    { id: 1, source: 'any', target: 'main', reviewers: ['bob'], requiredApprovals: 1 },
  ]);
  const created = await run([
    'repo',
    'settings',
    'default-reviewers',
    'create',
    '-R',
    'PROJ/api',
    '--reviewers',
    'alice,bob',
    '--source',
    'category:feature',
    '--target',
    'model:production',
    '--approvals',
    '2',
  ]);
  assert.is(created.code, 0, created.stderr);
  assert.match(created.stdout, /\tcategory:FEATURE\tmodel:production\talice,bob\t2\n$/);
  const stored = opsState(fake.state).defaultReviewers.at(-1)!;
  assert.equal([stored.reviewers, stored.targetRefMatcher.type.id], [['alice', 'bob'], 'MODEL_BRANCH']);
  const tooMany = await run([
    'repo',
    'settings',
    'default-reviewers',
    'create',
    '-R',
    'PROJ/api',
    '--reviewers',
    'alice',
    '--approvals',
    '2',
  ]);
  assert.match(tooMany.stderr, '--approvals 2 is more than the 1 reviewer(s) given');
  const del = await run([
    'repo',
    'settings',
    'default-reviewers',
    'delete',
    String(stored.id),
    '-R',
    'PROJ/api',
    '--json',
  ]);
  assert.equal(del.json().data, { repository: 'PROJ/api', id: stored.id, deleted: true });
  assert.is(opsState(fake.state).defaultReviewers.length, 1);
});

test('--dry-run plans every settings change from reads only and leaves the settings as they were', async () => {
  const before = snapshotOps(fake.state);
  const n = fake.requests.length;
  const plan = async (argv: string[]) => {
    const r = await run([...argv, '-R', 'PROJ/api', '--dry-run', '--json']);
    // A plan the real run would refuse exits as that run would (5), any other 0.
    assert.is(r.code, r.json().data.predictedAction === 'conflict' ? 5 : 0, r.stdout);
    assert.equal(r.json().meta.dryRun, true);
    return r.json().data;
  };
  const pr = await plan(['repo', 'settings', 'pull-requests', 'update', '--required-approvers', '3']);
  assert.equal(
    [pr.predictedAction, pr.action.body],
    ['update', { requiredApprovers: { enabled: true, count: '3' } }],
  );
  assert.match(pr.reasons.join('\n'), 'requiredApprovers is resent as 3');
  assert.is(
    (await plan(['repo', 'settings', 'pull-requests', 'update', '--all-approvers', 'false'])).predictedAction,
    'no-op',
  );
  assert.is((await plan(['repo', 'settings', 'auto-merge', 'set', 'on'])).predictedAction, 'update');
  assert.is((await plan(['repo', 'settings', 'auto-merge', 'delete'])).predictedAction, 'no-op');
  assert.equal((await plan(['repo', 'settings', 'auto-decline', 'set', 'on'])).action.body, {
    enabled: true,
    inactivityWeeks: 4,
  });
  assert.is((await plan(['repo', 'settings', 'auto-decline', 'delete'])).predictedAction, 'no-op');
  const dup = await plan(['repo', 'settings', 'reviewer-groups', 'create', 'backend', '--users', 'bob']);
  assert.equal(
    [dup.predictedAction, dup.blockingReasons],
    ['conflict', ['a reviewer group named backend already exists (id 1)']],
  );
  assert.is((await plan(['repo', 'settings', 'reviewer-groups', 'delete', '1'])).predictedAction, 'delete');
  const cond = await plan([
    'repo',
    'settings',
    'default-reviewers',
    'create',
    '--reviewers',
    'alice',
    '--target',
    'main',
  ]);
  assert.match(cond.reasons.join('\n'), 'condition 1 already covers any -> main (bob)');
  assert.is((await plan(['repo', 'settings', 'default-reviewers', 'delete', '1'])).predictedAction, 'delete');
  assert.is(
    (await plan(['repo', 'settings', 'default-reviewers', 'delete', '99'])).predictedAction,
    'conflict',
  );
  const human = await run(['repo', 'settings', 'auto-merge', 'set', 'off', '-R', 'PROJ/api', '--dry-run']);
  assert.match(human.stdout, 'Dry run: would turn auto-merge off for PROJ/api');
  assert.equal(writes(n), []);
  assert.is(snapshotOps(fake.state), before);
});

test.run();
