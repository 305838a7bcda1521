import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { grantsOf } from '../fake-bitbucket/core-state.ts';
import { credentials } from '../fake-bitbucket/state.ts';
import { runAgainst, withFake } from './helpers/fake.ts';

const test = suite('bbdc permissions');
let fake: Awaited<ReturnType<typeof withFake>>;
test.before(async () => {
  fake = await withFake();
});
test.after(async () => {
  await fake.stop();
});
const run = runAgainst(() => fake);
const writes = (from: number) => fake.requests.slice(from).filter((q) => q.method !== 'GET');

test('permissions show: the caller effective level, from user, group and project grants', async () => {
  const admin = (await run(['project', 'permissions', 'show', 'PROJ', '--json'])).json().data;
  assert.equal(admin, {
    scope: 'project',
    target: 'PROJ',
    username: 'alice',
    permission: 'PROJECT_ADMIN',
    permissions: ['PROJECT_READ', 'PROJECT_WRITE', 'PROJECT_ADMIN'],
  });
  const reader = await run(['project', 'permissions', 'show', 'PROJ'], credentials.bob.token);
  assert.is(reader.stdout, 'bob holds PROJECT_READ on project PROJ\n');
  grantsOf(fake.state, 'PROJ/api').groups.set('developers', 'REPO_WRITE');
  const viaGroup = await run(['repo', 'permissions', 'show', 'PROJ/api'], credentials.bob.token);
  assert.is(viaGroup.stdout, 'bob holds REPO_WRITE on repository PROJ/api\n  which includes REPO_READ\n');
  grantsOf(fake.state, 'PROJ/api').groups.clear();
  const json = (
    await run(['repo', 'permissions', 'show', 'PROJ/web', '--json'], credentials.bob.token)
  ).json().data;
  assert.equal([json.permission, json.target], ['REPO_READ', 'PROJ/web']);
  const missing = await run(['project', 'permissions', 'show', 'NOPE', '--json']);
  assert.is(missing.code, 4);
});

test('project permissions users: grant plans create, update or no-op without writing, then grants and lists', async () => {
  const n = fake.requests.length;
  const dry = (
    await run([
      'project',
      'permissions',
      'users',
      'grant',
      'PROJ',
      'bob',
      '--permission',
      'write',
      '--dry-run',
      '--json',
    ])
  ).json().data;
  assert.equal([dry.predictedAction, dry.action.method], ['create', 'PUT']);
  assert.is(
    dry.action.path,
    '/rest/api/latest/projects/PROJ/permissions/users?name=bob&permission=PROJECT_WRITE',
  );
  const nobody = (
    await run([
      'project',
      'permissions',
      'users',
      'grant',
      'PROJ',
      'carol',
      '--permission',
      'read',
      '--dry-run',
      '--json',
    ])
  ).json().data;
  assert.equal(nobody.blockingReasons, ['user carol does not exist']);
  assert.equal(writes(n), []);
  assert.is(grantsOf(fake.state, 'PROJ').users.size, 0);
  const human = await run([
    'project',
    'permissions',
    'users',
    'grant',
    'PROJ',
    'bob',
    '--permission',
    'write',
  ]);
  assert.is(human.stdout, 'Gave user bob PROJECT_WRITE on PROJ.\n');
  const again = (
    await run([
      'project',
      'permissions',
      'users',
      'grant',
      'PROJ',
      'bob',
      '--permission',
      'PROJECT_WRITE',
      '--dry-run',
      '--json',
    ])
  ).json().data;
  assert.is(again.predictedAction, 'no-op');
  const up = (
    await run(['project', 'permissions', 'users', 'grant', 'PROJ', 'bob', '--permission', 'admin', '--json'])
  ).json().data;
  assert.equal(up, {
    scope: 'project',
    target: 'PROJ',
    subject: 'user',
    name: 'bob',
    permission: 'PROJECT_ADMIN',
    previous: 'PROJECT_WRITE',
    changed: true,
  });
  const list = await run(['project', 'permissions', 'users', 'list', 'PROJ']);
  assert.is(list.stdout, 'bob\tBob Reader\tPROJECT_ADMIN\n');
  const listJson = (await run(['project', 'permissions', 'users', 'list', 'PROJ', '--json'])).json().data;
  assert.equal(listJson.entries, [{ name: 'bob', displayName: 'Bob Reader', permission: 'PROJECT_ADMIN' }]);
  const bad = await run([
    'project',
    'permissions',
    'users',
    'grant',
    'PROJ',
    'bob',
    '--permission',
    'REPO_WRITE',
  ]);
  assert.equal(
    [bad.code, bad.stderr.includes('--permission "REPO_WRITE" must be one of read, write, admin')],
    [2, true],
  );
});

test('project permissions users revoke: plans delete or no-op, revokes', async () => {
  const n = fake.requests.length;
  const dry = (
    await run(['project', 'permissions', 'users', 'revoke', 'PROJ', 'bob', '--dry-run', '--json'])
  ).json().data;
  assert.equal([dry.predictedAction, dry.action.method], ['delete', 'DELETE']);
  assert.equal(writes(n), []);
  assert.is(grantsOf(fake.state, 'PROJ').users.get('bob'), 'PROJECT_ADMIN');
  const human = await run(['project', 'permissions', 'users', 'revoke', 'PROJ', 'bob']);
  assert.is(human.stdout, 'Revoked PROJECT_ADMIN from user bob on PROJ.\n');
  const json = (await run(['project', 'permissions', 'users', 'revoke', 'PROJ', 'bob', '--json'])).json()
    .data;
  assert.equal([json.previous, json.permission, json.changed], [null, null, false]);
  const noop = (
    await run(['project', 'permissions', 'users', 'revoke', 'PROJ', 'bob', '--dry-run', '--json'])
  ).json().data;
  assert.is(noop.predictedAction, 'no-op');
});

test('project permissions groups: grant, list, revoke; an unknown group blocks the plan', async () => {
  const n = fake.requests.length;
  const dry = (
    await run([
      'project',
      'permissions',
      'groups',
      'grant',
      'OPS',
      'developers',
      '--permission',
      'read',
      '--dry-run',
      '--json',
    ])
  ).json().data;
  assert.is(dry.predictedAction, 'create');
  const unknown = (
    await run([
      'project',
      'permissions',
      'groups',
      'grant',
      'OPS',
      'nobody',
      '--permission',
      'read',
      '--dry-run',
      '--json',
    ])
  ).json().data;
  assert.equal(unknown.blockingReasons, ['group nobody does not exist']);
  assert.equal(writes(n), []);
  await run(['project', 'permissions', 'groups', 'grant', 'OPS', 'developers', '--permission', 'read']);
  const list = await run(['project', 'permissions', 'groups', 'list', 'OPS']);
  assert.is(list.stdout, 'developers\tPROJECT_READ\n');
  const json = (
    await run(['project', 'permissions', 'groups', 'revoke', 'OPS', 'developers', '--json'])
  ).json().data;
  assert.equal([json.subject, json.previous, json.changed], ['group', 'PROJECT_READ', true]);
  assert.is(grantsOf(fake.state, 'OPS').groups.size, 0);
});

test('repo permissions users and groups act on -R; a reader cannot list them', async () => {
  const n = fake.requests.length;
  const dry = (
    await run([
      'repo',
      'permissions',
      'users',
      'grant',
      'bob',
      '--permission',
      'admin',
      '-R',
      'PROJ/api',
      '--dry-run',
      '--json',
    ])
  ).json().data;
  assert.equal(
    [dry.predictedAction, dry.action.path],
    ['create', '/rest/api/latest/projects/PROJ/repos/api/permissions/users?name=bob&permission=REPO_ADMIN'],
  );
  assert.equal(writes(n), []);
  assert.is(grantsOf(fake.state, 'PROJ/api').users.size, 0);
  const human = await run([
    'repo',
    'permissions',
    'users',
    'grant',
    'bob',
    '--permission',
    'admin',
    '-R',
    'PROJ/api',
  ]);
  assert.is(human.stdout, 'Gave user bob REPO_ADMIN on PROJ/api.\n');
  const shown = (
    await run(['repo', 'permissions', 'show', 'PROJ/api', '--json'], credentials.bob.token)
  ).json().data;
  assert.is(shown.permission, 'REPO_ADMIN');
  const users = (await run(['repo', 'permissions', 'users', 'list', '-R', 'PROJ/api', '--json'])).json().data;
  assert.equal(
    [users.scope, users.target, users.entries[0].permission],
    ['repository', 'PROJ/api', 'REPO_ADMIN'],
  );
  await run(['repo', 'permissions', 'users', 'revoke', 'bob', '-R', 'PROJ/api']);
  const g = await run([
    'repo',
    'permissions',
    'groups',
    'grant',
    'release-managers',
    '--permission',
    'write',
    '-R',
    'PROJ/api',
  ]);
  assert.is(g.stdout, 'Gave group release-managers REPO_WRITE on PROJ/api.\n');
  const groups = await run(['repo', 'permissions', 'groups', 'list', '-R', 'PROJ/api']);
  assert.is(groups.stdout, 'release-managers\tREPO_WRITE\n');
  const gone = await run(['repo', 'permissions', 'groups', 'revoke', 'release-managers', '-R', 'PROJ/api']);
  assert.is(gone.stdout, 'Revoked REPO_WRITE from group release-managers on PROJ/api.\n');
  const denied = await run(
    ['repo', 'permissions', 'users', 'list', '-R', 'PROJ/api', '--json'],
    credentials.bob.token,
  );
  assert.equal([denied.code, denied.json().error.kind], [3, 'auth']);
});

test.run();
