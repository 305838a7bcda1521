import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { credentials } from '../fake-bitbucket/state.ts';
import { runAgainst, withFake } from './helpers/fake.ts';
import { createWorld } from './helpers/world.ts';

const test = suite('bbdc project');
let fake: Awaited<ReturnType<typeof withFake>>;
test.before(async () => {
  fake = await withFake();
});
test.after(async () => {
  await fake.stop();
});
const world = (token = credentials.alice.token, tty = false) =>
  createWorld({ tty, env: { BBDC_URL: fake.url, BBDC_TOKEN: token } });
const run = runAgainst(() => fake);
const writes = (from: number) => fake.requests.slice(from).filter((q) => q.method !== 'GET');

test('project list: a table on a terminal, tab-separated when piped, and --json with count', async () => {
  const w = world(credentials.alice.token, true);
  const human = await w.run(['project', 'list', '--no-color']);
  assert.is(human.code, 0, human.stderr);
  assert.match(human.stdout, /^KEY +NAME +VISIBILITY +DESCRIPTION\n/);
  assert.match(human.stdout, /\nOPS +Operations +public/);
  w.dispose();
  const piped = await run(['project', 'list']);
  assert.match(piped.stdout, 'PROJ\tProject\tprivate\t\n');
  const json = (await run(['project', 'list', '--json'])).json();
  assert.equal(
    json.data.projects.map((p: { key: string }) => p.key),
    ['PROJ', 'OPS', '~alice'],
  );
  assert.equal([json.data.count, json.data.truncated], [3, false]);
  assert.is(json.data.projects[2].type, 'PERSONAL');
});

test('project list: --limit caps the total, --start skips, --permission and --name filter on the server', async () => {
  const n = fake.requests.length;
  const capped = (await run(['project', 'list', '--limit', '1', '--start', '1', '--json'])).json().data;
  assert.equal([capped.projects[0].key, capped.count, capped.truncated], ['OPS', 1, true]);
  assert.equal([fake.requests[n].query.get('start'), fake.requests[n].query.get('limit')], ['1', '1']);
  const admin = (
    await run(['project', 'list', '--permission', 'PROJECT_ADMIN', '--json'], credentials.bob.token)
  ).json();
  assert.equal(admin.data.projects, []);
  const named = (await run(['project', 'list', '--name', 'oper', '--json'])).json().data;
  assert.equal(
    named.projects.map((p: { key: string }) => p.key),
    ['OPS'],
  );
  const bad = await run(['project', 'list', '--start', '-1']);
  assert.is(bad.code, 2);
});

test('project get: fields in human form and json; an unknown key is exit 4', async () => {
  const human = await run(['project', 'get', 'ops']);
  assert.match(human.stdout, 'OPS  Operations\nvisibility:   public\ntype:         normal');
  const json = (await run(['project', 'get', '~ALICE', '--json'])).json().data;
  assert.equal([json.key, json.type, json.public], ['~alice', 'PERSONAL', false]);
  const missing = await run(['project', 'get', 'NOPE', '--json']);
  assert.equal([missing.code, missing.json().error.kind], [4, 'not_found']);
  assert.match(missing.json().error.message, 'Project NOPE does not exist');
});

test('project create: --dry-run leaves the server unchanged, then creates; an existing key is a conflict', async () => {
  const n = fake.requests.length;
  const dry = (await run(['project', 'create', 'plat', '--name', 'Platform', '--dry-run', '--json'])).json();
  assert.equal(dry.meta.dryRun, true);
  assert.equal(
    [dry.data.predictedAction, dry.data.action.method, dry.data.action.path],
    ['create', 'POST', '/rest/api/latest/projects'],
  );
  assert.equal(dry.data.action.body, { key: 'PLAT', name: 'Platform', public: false });
  assert.equal(writes(n), []);
  assert.not.ok(fake.state.projects.some((p) => p.key === 'PLAT'));
  const human = await run(['project', 'create', 'plat', '--name', 'Platform', '--description', 'Shared']);
  assert.is(human.code, 0, human.stderr);
  assert.match(human.stdout, 'Created project PLAT.\nPLAT  Platform');
  assert.ok(fake.state.projects.some((p) => p.key === 'PLAT' && p.description === 'Shared'));
  const again = (await run(['project', 'create', 'PLAT', '--dry-run', '--json'])).json().data;
  assert.equal([again.predictedAction, again.blockingReasons], ['conflict', ['project PLAT already exists']]);
  const dup = await run(['project', 'create', 'PLAT', '--json']);
  assert.equal([dup.code, dup.json().error.kind], [5, 'conflict']);
  const json = (await run(['project', 'create', 'JSN', '--public', '--json'])).json().data;
  assert.equal([json.key, json.name, json.public], ['JSN', 'JSN', true]);
  const bad = await run(['project', 'create', '1abc']);
  assert.equal([bad.code, bad.stderr.includes('must start with a letter')], [2, true]);
});

test('project update: plans the difference (or no-op) without writing, then updates', async () => {
  const n = fake.requests.length;
  const dry = (
    await run(['project', 'update', 'OPS', '--description', 'Ops team', '--dry-run', '--json'])
  ).json().data;
  assert.is(dry.predictedAction, 'update');
  assert.ok(dry.reasons.includes('description: "" -> "Ops team"'), dry.reasons.join());
  assert.equal(writes(n), []);
  assert.is(fake.state.projects.find((p) => p.key === 'OPS')!.description, undefined);
  const same = (await run(['project', 'update', 'OPS', '--name', 'Operations', '--dry-run', '--json'])).json()
    .data;
  assert.is(same.predictedAction, 'no-op');
  const human = await run([
    'project',
    'update',
    'OPS',
    '--description',
    'Ops team',
    '--visibility',
    'private',
  ]);
  assert.match(human.stdout, 'Updated project OPS.');
  assert.match(human.stdout, 'visibility:   private');
  const json = (await run(['project', 'update', 'OPS', '--visibility', 'public', '--json'])).json().data;
  assert.equal([json.public, json.description], [true, 'Ops team']);
  const none = await run(['project', 'update', 'OPS']);
  assert.equal([none.code, none.stderr.includes('nothing to change')], [2, true]);
  const denied = await run(['project', 'update', 'OPS', '--name', 'x', '--json'], credentials.bob.token);
  assert.equal([denied.code, denied.json().error.kind], [3, 'auth']);
});

test('project delete: needs --yes off a terminal, plans a conflict for a project with repositories, deletes', async () => {
  const n = fake.requests.length;
  const noYes = await run(['project', 'delete', 'JSN']);
  assert.equal([noYes.code, noYes.stderr.includes('without --yes')], [2, true]);
  const busy = (await run(['project', 'delete', 'PROJ', '--dry-run', '--json'])).json().data;
  assert.equal(busy.blockingReasons, ['project PROJ still has repositories; delete or move them first']);
  const dry = (await run(['project', 'delete', 'JSN', '--dry-run', '--json'])).json().data;
  assert.equal([dry.predictedAction, dry.action.method], ['delete', 'DELETE']);
  assert.equal(writes(n), []);
  assert.ok(fake.state.projects.some((p) => p.key === 'JSN'));
  const json = (await run(['project', 'delete', 'JSN', '--yes', '--json'])).json().data;
  assert.equal(json, { type: 'project', id: 'JSN', deleted: true });
  const human = await run(['project', 'delete', 'PLAT', '-y']);
  assert.is(human.stdout, 'Deleted project PLAT.\n');
  assert.not.ok(fake.state.projects.some((p) => p.key === 'PLAT' || p.key === 'JSN'));
  const typed = createWorld({
    stdinTTY: true,
    prompts: ['WRONG'],
    env: { BBDC_URL: fake.url, BBDC_TOKEN: credentials.alice.token },
  });
  const refused = await typed.run(['project', 'delete', 'OPS']);
  assert.equal([refused.code, typed.asked], [2, ['Type OPS to delete project OPS: ']]);
  typed.dispose();
});

test.run();
