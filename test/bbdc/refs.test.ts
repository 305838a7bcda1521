import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { gitOf, sha } from '../fake-bitbucket/core-state.ts';
import { credentials } from '../fake-bitbucket/state.ts';
import { withFake } from './helpers/fake.ts';
import { createWorld } from './helpers/world.ts';

const test = suite('bbdc branch and tag');
let fake: Awaited<ReturnType<typeof withFake>>;
test.before(async () => {
  fake = await withFake();
});
test.after(async () => {
  await fake.stop();
});
// PROJ/web (id 12): master at c4 (merge of feature/docs at c3), tag v1.0 at c2.
const c = (n: number) => sha(`12:${n}`);
const run = async (argv: string[], options: { token?: string; tty?: boolean } = {}) => {
  const w = createWorld({
    tty: options.tty,
    env: { BBDC_URL: fake.url, BBDC_TOKEN: options.token ?? credentials.alice.token },
  });
  try {
    return await w.run([...argv, '-R', 'PROJ/web']);
  } finally {
    w.dispose();
  }
};
const writes = (from: number) => fake.requests.slice(from).filter((q) => q.method !== 'GET');
const web = () => gitOf(fake.state, fake.state.repos.find((r) => r.slug === 'web')!);

test('branch list: default first with a marker, a table on a terminal, --json, --filter on the server', async () => {
  const human = await run(['branch', 'list', '--no-color'], { tty: true });
  assert.is(
    human.stdout,
    `   BRANCH        COMMIT\n*  master        ${c(4).slice(0, 11)}\n   feature/docs  ${c(3).slice(0, 11)}\n`,
  );
  const json = (await run(['branch', 'list', '--json'])).json().data;
  assert.equal(json.repository, 'PROJ/web');
  assert.equal(json.branches[0], {
    name: 'master',
    id: 'refs/heads/master',
    latestCommit: c(4),
    default: true,
  });
  const n = fake.requests.length;
  const filtered = (await run(['branch', 'list', '--filter', 'feat', '--limit', '1', '--json'])).json().data;
  assert.equal(
    filtered.branches.map((b: { name: string }) => b.name),
    ['feature/docs'],
  );
  assert.is(fake.requests[n].query.get('filterText'), 'feat');
});

test('branch create: from a branch (refs/heads/ added) or a commit id (sent as is); --dry-run writes nothing', async () => {
  let n = fake.requests.length;
  const dry = (await run(['branch', 'create', 'hotfix', '--from', c(2), '--dry-run', '--json'])).json().data;
  assert.equal([dry.predictedAction, dry.action.body], ['create', { name: 'hotfix', startPoint: c(2) }]);
  assert.equal(writes(n), []);
  assert.not.ok('hotfix' in web().branches);
  const short = (await run(['branch', 'create', 'hotfix', '--from', c(2).slice(0, 12), '--json'])).json()
    .data;
  assert.equal([short.name, short.latestCommit], ['hotfix', c(2)]);
  n = fake.requests.length;
  const human = await run(['branch', 'create', 'feature/x', '--from', 'feature/docs']);
  assert.is(human.stdout, `Created branch feature/x at ${c(3).slice(0, 11)}.\n`);
  assert.ok(fake.requests.slice(n).some((q) => q.method === 'POST'));
  assert.is(web().branches['feature/x'], c(3));
  const fromDefault = (await run(['branch', 'create', 'release/1', '--dry-run', '--json'])).json().data;
  assert.equal(fromDefault.action.body.startPoint, 'refs/heads/master');
  const conflict = (await run(['branch', 'create', 'hotfix', '--from', 'nope', '--dry-run', '--json'])).json()
    .data;
  assert.equal(conflict.blockingReasons, [
    `branch hotfix already exists at ${c(2).slice(0, 11)}`,
    'branch nope does not exist in PROJ/web',
  ]);
  const bad = await run(['branch', 'create', 'a..b']);
  assert.equal([bad.code, bad.stderr.includes('not a valid git branch name')], [2, true]);
  const reader = await run(['branch', 'create', 'x', '--json'], { token: credentials.bob.token });
  assert.is(reader.code, 3);
});

test('branch delete: plans, refuses the default branch, deletes through branch-utils', async () => {
  const n = fake.requests.length;
  const dry = (await run(['branch', 'delete', 'hotfix', '--dry-run', '--json'])).json().data;
  assert.equal(
    [dry.predictedAction, dry.action.path],
    ['delete', '/rest/branch-utils/latest/projects/PROJ/repos/web/branches'],
  );
  const blocked = (await run(['branch', 'delete', 'master', '--dry-run', '--json'])).json().data;
  assert.match(blocked.blockingReasons[0], 'master is the default branch');
  assert.equal(writes(n), []);
  assert.ok('hotfix' in web().branches);
  const json = (await run(['branch', 'delete', 'hotfix', '--json'])).json().data;
  assert.equal(json, { type: 'branch', id: 'PROJ/web:hotfix', deleted: true });
  const human = await run(['branch', 'delete', 'feature/x']);
  assert.is(human.stdout, 'Deleted branch feature/x.\n');
  assert.not.ok('hotfix' in web().branches || 'feature/x' in web().branches);
  const missing = await run(['branch', 'delete', 'hotfix', '--json']);
  assert.is(missing.code, 4);
});

test('branch default get and set: human and json, a no-op plan, a missing branch blocks', async () => {
  assert.is((await run(['branch', 'default', 'get'])).stdout, 'master\n');
  const got = (await run(['branch', 'default', 'get', '--json'])).json().data;
  assert.equal(got, { name: 'master', id: 'refs/heads/master', latestCommit: c(4), default: true });
  const n = fake.requests.length;
  const dry = (await run(['branch', 'default', 'set', 'feature/docs', '--dry-run', '--json'])).json().data;
  assert.equal([dry.predictedAction, dry.action.body], ['update', { id: 'refs/heads/feature/docs' }]);
  const same = (await run(['branch', 'default', 'set', 'master', '--dry-run', '--json'])).json().data;
  assert.is(same.predictedAction, 'no-op');
  const none = (await run(['branch', 'default', 'set', 'nope', '--dry-run', '--json'])).json().data;
  assert.equal(none.blockingReasons, ['branch nope does not exist in PROJ/web']);
  assert.equal(writes(n), []);
  assert.is(web().defaultBranch, 'master');
  const human = await run(['branch', 'default', 'set', 'feature/docs']);
  assert.is(human.stdout, 'The default branch of PROJ/web is now feature/docs (was master).\n');
  const json = (await run(['branch', 'default', 'set', 'master', '--json'])).json().data;
  assert.equal(json, { repository: 'PROJ/web', branch: 'master', previous: 'feature/docs' });
});

test('tag list and view: annotated and lightweight, human and json', async () => {
  const list = await run(['tag', 'list']);
  assert.is(list.stdout, `v1.0\t${c(2).slice(0, 11)}\tannotated\n`);
  const json = (await run(['tag', 'list', '--json'])).json().data;
  assert.equal([json.count, json.tags[0].name, json.tags[0].latestCommit], [1, 'v1.0', c(2)]);
  const view = await run(['tag', 'view', 'v1.0']);
  assert.match(view.stdout, `v1.0\nref:     refs/tags/v1.0\ncommit:  ${c(2)}\ntype:    annotated`);
  const viewJson = (await run(['tag', 'view', 'refs/tags/v1.0', '--json'])).json().data;
  assert.equal(viewJson.id, 'refs/tags/v1.0');
  const missing = await run(['tag', 'view', 'v9', '--json']);
  assert.equal([missing.code, missing.json().error.kind], [4, 'not_found']);
});

test('tag create and delete: plans write nothing; annotated with --message; from a commit id as is', async () => {
  const n = fake.requests.length;
  const dry = (
    await run(['tag', 'create', 'v1.1', '--from', c(3), '-m', 'Docs', '--dry-run', '--json'])
  ).json().data;
  assert.equal(dry.action.body, { name: 'v1.1', startPoint: c(3), message: 'Docs' });
  const taken = (await run(['tag', 'create', 'v1.0', '--dry-run', '--json'])).json().data;
  assert.match(taken.blockingReasons[0], 'tag v1.0 already exists');
  const delDry = (await run(['tag', 'delete', 'v1.0', '--dry-run', '--json'])).json().data;
  assert.equal(
    [delDry.predictedAction, delDry.action.path],
    ['delete', '/rest/git/latest/projects/PROJ/repos/web/tags/v1.0'],
  );
  assert.equal(writes(n), []);
  assert.equal([...web().tags.keys()], ['v1.0']);
  const human = await run(['tag', 'create', 'v1.1', '--from', c(3), '-m', 'Docs']);
  assert.match(
    human.stdout,
    `Created tag v1.1.\nv1.1\nref:     refs/tags/v1.1\ncommit:  ${c(3)}\ntype:    annotated`,
  );
  const light = (await run(['tag', 'create', 'nightly', '--json'])).json().data;
  assert.equal([light.latestCommit, light.hash], [c(4), undefined]);
  const del = (await run(['tag', 'delete', 'nightly', '--json'])).json().data;
  assert.equal(del, { type: 'tag', id: 'PROJ/web:nightly', deleted: true });
  assert.is((await run(['tag', 'delete', 'v1.1'])).stdout, 'Deleted tag v1.1.\n');
  assert.equal([...web().tags.keys()], ['v1.0']);
});

test.run();
