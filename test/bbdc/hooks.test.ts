import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { opsState, snapshotOps } from '../fake-bitbucket/ops-state.ts';
import { credentials } from '../fake-bitbucket/state.ts';
import { runAgainst, withFake } from './helpers/fake.ts';

const test = suite('bbdc hook');
let fake: Awaited<ReturnType<typeof withFake>>;
test.before(async () => {
  fake = await withFake();
});
test.after(async () => {
  await fake.stop();
});
const bundled = 'com.atlassian.bitbucket.server.bitbucket-bundled-hooks';
const run = runAgainst(() => fake);
const writes = (from: number) => fake.requests.slice(from).filter((q) => q.method !== 'GET');

test('hook list shows each hook, its state and where the state comes from', async () => {
  const human = await run(['hook', 'list', '-R', 'PROJ/api']);
  assert.is(human.code, 0, human.stderr);
  assert.is(
    human.stdout,
    [
      'force-push-hook\tReject Force Push\tPRE_RECEIVE\tyes\tproject',
      'requiredApproversMergeHook\tMinimum approvals\tPRE_PULL_REQUEST_MERGE\tno\tglobal',
      'notify-hook\tNotify chat\tPOST_RECEIVE\tno\tglobal',
      '',
    ].join('\n'),
  );
  const json = (await run(['hook', 'list', '-R', 'PROJ/api', '--json'])).json().data;
  assert.equal(json.scope, { type: 'repository', id: 'PROJ/api' });
  assert.equal(json.hooks[0], {
    key: `${bundled}:force-push-hook`,
    shortKey: 'force-push-hook',
    name: 'Reject Force Push',
    type: 'PRE_RECEIVE',
    enabled: true,
    configured: false,
    configurable: false,
    inheritedFrom: 'project',
    description: 'Reject all force pushes (git push --force) to this repository',
  });
  const project = (await run(['hook', 'list', '--project', 'proj', '--type', 'PRE_RECEIVE', '--json'])).json()
    .data;
  assert.equal(project.scope, { type: 'project', id: 'PROJ' });
  assert.equal(
    project.hooks.map((h: { shortKey: string; inheritedFrom?: string }) => [h.shortKey, h.inheritedFrom]),
    [['force-push-hook', undefined]],
  );
});

test('hook enable and disable accept the short key and change only the named scope', async () => {
  const on = await run(['hook', 'enable', 'notify-hook', '-R', 'PROJ/api']);
  assert.is(on.code, 0, on.stderr);
  assert.is(on.stdout, 'Enabled Notify chat (notify-hook) on repository PROJ/api\n');
  assert.equal(opsState(fake.state).hooks['PROJ/api|com.example.hooks:notify-hook'], { enabled: true });
  const off = (await run(['hook', 'disable', 'force-push-hook', '--project', 'PROJ', '--json'])).json();
  assert.equal(off.data.hook.enabled, false);
  assert.equal(off.data.scope, { type: 'project', id: 'PROJ' });
  assert.equal(opsState(fake.state).hooks[`PROJ|${bundled}:force-push-hook`], { enabled: false });
  const put = fake.requests.find((q) => q.method === 'PUT' && q.path.endsWith('/enabled'));
  assert.is(
    put?.path,
    '/rest/api/latest/projects/PROJ/repos/api/settings/hooks/com.example.hooks%3Anotify-hook/enabled',
  );
});

test('an unknown hook key is a usage error naming the list command; a reader gets an auth error', async () => {
  const r = await run(['hook', 'enable', 'no-such-hook', '-R', 'PROJ/api']);
  assert.is(r.code, 2);
  assert.match(r.stderr, 'no hook "no-such-hook" in repository PROJ/api; run `bbdc hook list`');
  const bob = await run(['hook', 'list', '-R', 'PROJ/api', '--json'], credentials.bob.token);
  assert.equal([bob.code, bob.json().error.kind], [3, 'auth']);
  assert.match(bob.json().error.message, 'REPO_ADMIN is required');
});

test('hook configure --settings replaces, --set edits one key, bad JSON names the flag', async () => {
  const r = await run([
    'hook',
    'configure',
    'requiredApproversMergeHook',
    '-R',
    'PROJ/web',
    '--settings',
    '{"requiredCount":2,"ignoreSelfApprove":true}',
  ]);
  assert.is(r.code, 0, r.stderr);
  assert.match(r.stdout, 'Configured requiredApproversMergeHook on repository PROJ/web');
  assert.match(r.stdout, /requiredCount\s+2/);
  const edit = await run([
    'hook',
    'configure',
    'requiredApproversMergeHook',
    '-R',
    'PROJ/web',
    '--set',
    'requiredCount=3',
    '--json',
  ]);
  assert.equal(edit.json().data.settings, { requiredCount: 3, ignoreSelfApprove: true });
  assert.equal(opsState(fake.state).hooks[`PROJ/web|${bundled}:requiredApproversMergeHook`].settings, {
    requiredCount: 3,
    ignoreSelfApprove: true,
  });
  const bad = await run(['hook', 'configure', 'notify-hook', '-R', 'PROJ/web', '--settings', '{nope']);
  assert.is(bad.code, 2);
  assert.match(bad.stderr, '--settings is not valid JSON');
  const none = await run(['hook', 'configure', 'notify-hook', '-R', 'PROJ/web']);
  assert.match(none.stderr, 'pass --settings JSON or at least one --set KEY=VALUE');
  const noSettings = await run(['hook', 'configure', 'force-push-hook', '-R', 'PROJ/web', '--set', 'x=1']);
  assert.is(noSettings.code, 2);
  assert.match(noSettings.stderr, 'Reject Force Push has no settings');
});

test('--dry-run plans enable, disable and configure from reads only and leaves the hooks as they were', async () => {
  const before = snapshotOps(fake.state);
  const n = fake.requests.length;
  const enable = (
    await run(['hook', 'enable', 'force-push-hook', '-R', 'OPS/tools', '--dry-run', '--json'])
  ).json();
  assert.equal(enable.meta.dryRun, true);
  assert.is(enable.data.predictedAction, 'update');
  assert.equal(enable.data.action.method, 'PUT');
  assert.match(enable.data.reasons[1], 'Reject Force Push is disabled');
  const same = (await run(['hook', 'enable', 'notify-hook', '-R', 'PROJ/api', '--dry-run', '--json'])).json();
  assert.is(same.data.predictedAction, 'no-op');
  const disable = await run(['hook', 'disable', 'notify-hook', '-R', 'PROJ/api', '--dry-run']);
  assert.match(disable.stdout, 'Dry run: would disable hook notify-hook on repository PROJ/api');
  const configure = (
    await run([
      'hook',
      'configure',
      'notify-hook',
      '-R',
      'PROJ/api',
      '--set',
      'room=ops',
      '--dry-run',
      '--json',
    ])
  ).json();
  assert.equal([configure.data.predictedAction, configure.data.action.body], ['update', { room: 'ops' }]);
  assert.equal(writes(n), []);
  assert.is(snapshotOps(fake.state), before);
});

test.run();
