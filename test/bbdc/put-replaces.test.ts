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
});

test.run();
