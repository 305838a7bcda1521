// The fake's PUTs replace the object whole, as the 9.4 document describes them: an update command that sent only the
// fields it changes would erase the others. Each test changes one field and proves the rest survived.
import * as assert from 'uvu/assert';
import { opsState } from '../fake-bitbucket/ops-state.ts';
import { fakeSuite, prWorld } from './helpers/pr.ts';

const s = fakeSuite('bbdc update commands keep what a PUT replaces');
const { test } = s;
const api = ['-R', 'PROJ/api'];

test('webhook update keeps the basic-auth credentials and the secret', async () => {
  const hook = opsState(s.fake.state).webhooks.find((w) => w.id === 1)!;
  hook.credentials = { username: 'ci-bot', password: 'hook-pass' };
  hook.configuration = { secret: 'sign-me' };
  const r = await s.run(['webhook', 'update', '1', '--name', 'renamed', ...api, '--json']);
  assert.is(r.code, 0, r.stdout + r.stderr);
  assert.equal(
    [hook.name, hook.credentials, hook.configuration],
    ['renamed', { username: 'ci-bot', password: 'hook-pass' }, { secret: 'sign-me' }],
  );
  assert.not.match(r.stdout, 'hook-pass', 'the credentials are sent back, never printed');
  const plan = await s.run(['webhook', 'update', '1', '--name', 'again', ...api, '--dry-run', '--json']);
  assert.equal(plan.json().data.action.body.credentials, { username: 'ci-bot', password: '***' });
});

test('reviewer-groups update keeps the description (and the members) when renaming', async () => {
  const group = opsState(s.fake.state).reviewerGroups.find((g) => g.id === 1)!;
  const r = await s.run(['repo', 'settings', 'reviewer-groups', 'update', '1', '--name', 'api', ...api]);
  assert.is(r.code, 0, r.stdout + r.stderr);
  assert.equal([group.name, group.description, group.users], ['api', 'Backend team', ['alice', 'bob']]);
});

test('repo update, repo archive and project update keep the description and visibility they do not change', async () => {
  const web = s.fake.state.repos.find((r) => r.slug === 'web')!;
  web.description = 'Web UI';
  web.public = true;
  const renamed = await s.run(['repo', 'update', 'PROJ/web', '--name', 'site', '--json']);
  assert.is(renamed.code, 0, renamed.stdout + renamed.stderr);
  assert.equal([web.slug, web.description, web.public], ['site', 'Web UI', true]);
  const archived = await s.run(['repo', 'archive', '-R', 'PROJ/site', '--json']);
  assert.is(archived.code, 0, archived.stdout + archived.stderr);
  assert.equal([web.archived, web.description, web.public], [true, 'Web UI', true]);
  const ops = s.fake.state.projects.find((p) => p.key === 'OPS')!;
  ops.description = 'Operations';
  const project = await s.run(['project', 'update', 'OPS', '--visibility', 'public', '--json']);
  assert.is(project.code, 0, project.stdout + project.stderr);
  assert.equal([ops.public, ops.description], [true, 'Operations']);
});

test('build required update keeps the exemption; default-reviewers update the branches it does not change', async () => {
  const check = opsState(s.fake.state).requiredBuilds.find((c) => c.id === 1)!;
  const exempt = { id: 'refs/heads/hotfix', displayId: 'hotfix', type: { id: 'BRANCH', name: 'Branch' } };
  check.exemptRefMatcher = exempt;
  const builds = await s.run(['build', 'required', 'update', '1', '--builds', 'ci-build,lint', ...api]);
  assert.is(builds.code, 0, builds.stdout + builds.stderr);
  assert.equal([check.buildParentKeys, check.exemptRefMatcher?.id], [['ci-build', 'lint'], exempt.id]);
  const condition = opsState(s.fake.state).defaultReviewers.find((c) => c.id === 1)!;
  const target = condition.targetRefMatcher.id;
  const r = await s.run(['repo', 'settings', 'default-reviewers', 'update', '1', '--approvals', '0', ...api]);
  assert.is(r.code, 0, r.stdout + r.stderr);
  assert.equal([condition.requiredApprovals, condition.targetRefMatcher.id], [0, target]);
  assert.ok(condition.reviewers.length > 0, 'the reviewers are kept');
});

test('the fake erases what a PUT leaves out, as the document describes (the tests above could fail)', async () => {
  const group = opsState(s.fake.state).reviewerGroups.find((g) => g.id === 1)!;
  const hook = opsState(s.fake.state).webhooks.find((w) => w.id === 1)!;
  hook.credentials = { username: 'ci-bot', password: 'hook-pass' };
  const raw = async (path: string, body: unknown) => {
    const w = prWorld(s.fake, 'alice', { stdin: JSON.stringify(body) });
    const r = await w.run(['api', path, '--method', 'PUT', '--input', '-']);
    w.dispose();
    assert.is(r.code, 0, r.stdout + r.stderr);
  };
  await raw('api/latest/projects/PROJ/repos/api/settings/reviewer-groups/1', { name: 'only-name' });
  assert.equal([group.description, group.users], [undefined, []]);
  await raw('api/latest/projects/PROJ/repos/api/webhooks/1', {
    name: 'ci',
    url: 'https://ci.example.test/hook',
    events: ['repo:refs_changed'],
  });
  assert.equal([hook.credentials, hook.configuration], [undefined, {}]);
  const web = s.fake.state.repos.find((r) => r.slug === 'web')!;
  web.description = 'Web UI';
  await raw('api/latest/projects/PROJ/repos/web', { name: 'web', archived: false });
  assert.equal([web.description, web.public], [undefined, false]);
});

test.run();
