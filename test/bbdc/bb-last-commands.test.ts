// bb's last four commands: pr task update and repo hook-script list|set|remove.
import * as assert from 'uvu/assert';
import { assertSchema, fakeSuite, writesSince } from './helpers/pr.ts';

const s = fakeSuite('bbdc pr task update, repo hook-script');
const { test, run } = s;
const api = ['-R', 'PROJ/api'];

test('pr task update edits the text of a task at the version read, and changes nothing when it is the same', async () => {
  const r = await run([
    'pr',
    'task',
    'update',
    '1',
    '15',
    '--body',
    'Cover the empty list',
    ...api,
    '--json',
  ]);
  assert.is(r.code, 0, r.stdout + r.stderr);
  assertSchema('pr-comment', r.json().data);
  assert.is(r.json().data.text, 'Cover the empty list');
  const listed = (await run(['pr', 'task', 'list', '1', ...api, '--json'])).json().data;
  assert.ok(JSON.stringify(listed).includes('Cover the empty list'), JSON.stringify(listed));
  const n = s.fake.requests.length;
  const again = await run(['pr', 'task', 'update', '1', '15', '--body', 'Cover the empty list', ...api]);
  assert.equal([again.code, writesSince(s.fake, n)], [0, []]);
});

test('repo hook-script set, list and remove: the triggers a script runs on, replaced whole', async () => {
  const set = await run([
    'repo',
    'hook-script',
    'set',
    '1',
    '--triggers',
    'repo-push,pr-merge',
    ...api,
    '--json',
  ]);
  assert.is(set.code, 0, set.stdout + set.stderr);
  assertSchema('repo-hook-scripts', set.json().data);
  const listed = (await run(['repo', 'hook-script', 'list', ...api, '--json'])).json().data;
  assert.equal(listed.scripts, [
    {
      id: 1,
      name: 'no-secrets',
      type: 'PRE',
      description: 'Rejects pushes that add private keys',
      triggers: ['pr-merge', 'repo-push'],
    },
  ]);
  const plan = (
    await run([
      'repo',
      'hook-script',
      'set',
      '1',
      '--triggers',
      'pr-merge,repo-push',
      ...api,
      '--dry-run',
      '--json',
    ])
  ).json().data;
  assert.is(plan.predictedAction, 'no-op');
  const gone = await run(['repo', 'hook-script', 'remove', '1', ...api, '--json']);
  assert.equal([gone.code, gone.json().data.scripts], [0, []]);
  const human = await run(['repo', 'hook-script', 'list', ...api]);
  assert.match(human.stderr, 'PROJ/api runs no hook scripts.');
});

test('repo hook-script: --triggers is required, a bad id is refused, and a reader cannot change them (exit 3)', async () => {
  const none = await run(['repo', 'hook-script', 'set', '1', ...api]);
  assert.equal([none.code, none.stderr.includes('--triggers is required')], [2, true]);
  const bad = await run(['repo', 'hook-script', 'remove', 'x', ...api]);
  assert.match(bad.stderr, 'hook script id "x" must be a number');
  const n = s.fake.requests.length;
  const bob = await run(['repo', 'hook-script', 'set', '1', '--triggers', 'repo-push', ...api], 'bob');
  assert.is(bob.code, 3, bob.stderr);
  assert.equal(writesSince(s.fake, n), []);
});

test.run();
