import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { credentials } from '../fake-bitbucket/state.ts';
import { runAgainst, withFake } from './helpers/fake.ts';

const test = suite('bbdc repo');
let fake: Awaited<ReturnType<typeof withFake>>;
test.before(async () => {
  fake = await withFake();
});
test.after(async () => {
  await fake.stop();
});
const run = runAgainst(() => fake);
const writes = (from: number) => fake.requests.slice(from).filter((q) => q.method !== 'GET');

test('repo list --start skips on the server and --limit caps what follows', async () => {
  const n = fake.requests.length;
  const r = (await run(['repo', 'list', '--start', '1', '--limit', '2', '--json'])).json().data;
  assert.equal(
    r.repositories.map((x: { slug: string }) => x.slug),
    ['web', 'tools'],
  );
  assert.equal([fake.requests[n].query.get('start'), fake.requests[n].query.get('limit')], ['1', '2']);
  const personal = await run(['repo', 'list', '--project', '~ALICE']);
  assert.is(personal.stdout, '~alice/dotfiles\tdotfiles\tprivate\n');
});

test('repo get: by PROJECT/slug, ~user/slug, clone URLs and web URLs; human fields', async () => {
  const human = await run(['repo', 'get', 'PROJ/api']);
  assert.match(human.stdout, 'PROJ/api  api\nvisibility:   private\n');
  assert.match(human.stdout, `clone http:   ${fake.url}/scm/proj/api.git`);
  for (const selector of [
    '~alice/dotfiles',
    `${fake.url}/scm/~alice/dotfiles.git`,
    'ssh://git@git.example.test:7999/~alice/dotfiles.git',
    `${fake.url}/users/alice/repos/dotfiles/browse`,
  ]) {
    const r = await run(['repo', 'get', selector, '--json', '--host', fake.url]);
    assert.is(r.code, 0, `${selector}: ${r.stdout}${r.stderr}`);
    assert.equal([r.json().data.project, r.json().data.slug], ['~alice', 'dotfiles'], selector);
  }
  const byUrl = await run(['repo', 'get', `${fake.url}/projects/OPS/repos/tools/browse`, '--json']);
  assert.equal(byUrl.json().data.cloneUrls.ssh, 'ssh://git@git.example.test:7999/ops/tools.git');
  const missing = await run(['repo', 'get', 'PROJ/nope', '--json']);
  assert.equal([missing.code, missing.json().error.kind], [4, 'not_found']);
  const bad = await run(['repo', 'get', 'https://example.test/not/a/repo/path/x']);
  assert.is(bad.code, 2);
  assert.match(bad.stderr, 'is not a Bitbucket repository URL');
});

test('repo update: --dry-run predicts the change without writing; a rename moves the slug', async () => {
  const n = fake.requests.length;
  const dry = (
    await run(['repo', 'update', 'PROJ/web', '--description', 'Web UI', '--dry-run', '--json'])
  ).json();
  assert.equal([dry.data.predictedAction, dry.data.action.method], ['update', 'PUT']);
  // The PUT replaces the repository: its other settable fields go back as they are.
  assert.equal(dry.data.action.body, { name: 'web', public: false, archived: false, description: 'Web UI' });
  assert.equal(writes(n), []);
  assert.is(fake.state.repos.find((r) => r.slug === 'web')!.description, undefined);
  const human = await run(['repo', 'update', 'PROJ/web', '--description', 'Web UI']);
  assert.match(human.stdout, 'Updated PROJ/web.\nPROJ/web  web\ndescription:  Web UI');
  const noop = (
    await run(['repo', 'update', 'PROJ/web', '--description', 'Web UI', '--dry-run', '--json'])
  ).json().data;
  assert.is(noop.predictedAction, 'no-op');
  const renamed = (await run(['repo', 'update', 'PROJ/web', '--name', 'Web App', '--json'])).json().data;
  assert.equal([renamed.slug, renamed.name], ['web-app', 'Web App']);
  const gone = (await run(['repo', 'update', 'PROJ/web', '--name', 'x', '--dry-run', '--json'])).json().data;
  assert.equal(gone.blockingReasons, ['repository PROJ/web does not exist']);
  const denied = await run(
    ['repo', 'update', 'PROJ/api', '--visibility', 'public', '--json'],
    credentials.bob.token,
  );
  assert.equal(denied.code, 3);
});

test('repo fork: into ~you by default or a project; the fork knows its origin; --dry-run writes nothing', async () => {
  const n = fake.requests.length;
  const dry = (await run(['repo', 'fork', 'PROJ/api', '--dry-run', '--json'], credentials.bob.token)).json()
    .data;
  assert.equal([dry.predictedAction, dry.target.id], ['create', '~bob/api']);
  assert.equal(writes(n), []);
  assert.equal(
    fake.state.repos.filter((r) => r.originId !== undefined),
    [],
  );
  const human = await run(['repo', 'fork', 'PROJ/api'], credentials.bob.token);
  assert.is(human.code, 0, human.stderr);
  assert.match(human.stdout, 'Forked PROJ/api to ~bob/api.');
  const json = (
    await run(['repo', 'fork', 'PROJ/api', '--project', 'OPS', '--name', 'api-copy', '--json'])
  ).json().data;
  assert.equal([json.project, json.slug, json.forkOf], ['OPS', 'api-copy', 'PROJ/api']);
  const taken = (await run(['repo', 'fork', 'PROJ/api', '--dry-run', '--json'], credentials.bob.token)).json()
    .data;
  assert.equal(taken.blockingReasons, ['repository ~bob/api already exists']);
});

test('repo delete: refuses without --yes off a terminal, plans, deletes', async () => {
  const n = fake.requests.length;
  const refused = await run(['repo', 'delete', 'OPS/api-copy']);
  assert.equal([refused.code, refused.stderr.includes('without --yes')], [2, true]);
  const dry = (await run(['repo', 'delete', 'OPS/api-copy', '--dry-run', '--json'])).json().data;
  assert.equal(
    [dry.predictedAction, dry.action.path],
    ['delete', '/rest/api/latest/projects/OPS/repos/api-copy'],
  );
  assert.equal(writes(n), []);
  assert.ok(fake.state.repos.some((r) => r.slug === 'api-copy'));
  const json = (await run(['repo', 'delete', 'OPS/api-copy', '--yes', '--json'])).json().data;
  assert.equal(json, { type: 'repository', id: 'OPS/api-copy', deleted: true });
  const human = await run(['repo', 'delete', '~bob/api', '--yes'], credentials.bob.token);
  assert.is(human.stdout, 'Deleted repository ~bob/api.\n');
  assert.not.ok(fake.state.repos.some((r) => r.slug === 'api-copy' || r.projectKey === '~bob'));
  const missing = (await run(['repo', 'delete', 'OPS/api-copy', '--dry-run', '--json'])).json().data;
  assert.is(missing.predictedAction, 'conflict');
});

test.run();
