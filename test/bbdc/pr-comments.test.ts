import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { withFake } from './helpers/fake.ts';
import { assertPlan, assertSchema, fakePr, prWorld, snapshot, writesSince } from './helpers/pr.ts';

const test = suite('bbdc pr comment and task');
let fake: Awaited<ReturnType<typeof withFake>>;
test.before.each(async () => {
  fake = await withFake();
});
test.after.each(async () => {
  await fake.stop();
});

test('a thread with replies and an inline anchor renders as a readable thread', async () => {
  const w = prWorld(fake);
  const r = await w.run(['pr', 'comment', 'list', '1']);
  assert.is(r.code, 0, r.stderr);
  assert.is(
    r.stdout,
    [
      'general comment',
      '● alice · #10 · 2023-11-14 22:13',
      '  Looks good overall.',
      '  └─ bob · #11 · 2023-11-14 22:13',
      '     Thanks!',
      '',
      'src/login.ts:2 (added line)',
      '● alice · #12 · 2023-11-14 22:13',
      '  Check the password length here.',
      '  └─ bob · #13 · 2023-11-14 22:13',
      '     Done in the next commit.',
      '     └─ alice · #14 · 2023-11-14 22:13',
      '        Agreed.',
      '',
      'general comment',
      '● alice · #15 · 2023-11-14 22:13 [task, open]',
      '  Add tests for the login form',
      '',
    ].join('\n'),
  );
  w.dispose();
});

test('its --json validates against the schema: threads from the activities, replies nested, anchors kept', async () => {
  const w = prWorld(fake);
  const r = await w.run(['pr', 'comment', 'list', '1', '--json']);
  const data = r.json().data;
  assertSchema('pr-comment-list', data);
  assert.equal([data.count, data.threads.map((t: any) => t.id)], [6, [10, 12, 15]]);
  const inline = data.threads[1];
  assert.equal(inline.anchor, { path: 'src/login.ts', line: 2, lineType: 'ADDED', fileType: 'TO' });
  assert.equal(inline.replies[0].replies[0].text, 'Agreed.');
  assert.ok(fake.requests.some((q) => q.operationId === 'getActivities'));
  const ids = async (...f: string[]) =>
    (await w.run(['pr', 'comment', 'list', '1', ...f, '--json'])).json().data.threads.map((t: any) => t.id);
  assert.equal(await ids('--path', 'src/login.ts'), [12]);
  assert.equal(await ids('--path', 'src'), [12]);
  assert.equal(await ids('--path', 'README.md'), []);
  assert.equal(await ids('--blocker'), [15]);
  w.dispose();
});

test('comment add: general, reply and inline; each shows up in the thread list', async () => {
  const w = prWorld(fake, 'bob');
  const general = await w.run(['pr', 'comment', 'add', '1', '--body', 'Ready for another look.', '--json']);
  assert.is(general.code, 0, general.stdout);
  assertSchema('pr-comment', general.json().data);
  const reply = await w.run([
    'pr',
    'comment',
    'add',
    '1',
    '--reply-to',
    '12',
    '-b',
    'Now at least 12 characters.',
  ]);
  assert.match(reply.stdout, /^Added comment #\d+\n$/);
  const inline = await w.run([
    'pr',
    'comment',
    'add',
    '1',
    '--path',
    'src/login.ts',
    '--line',
    '1',
    '--line-type',
    'added',
    '--body',
    'Rename?',
  ]);
  assert.is(inline.stdout, `Added comment #102 on src/login.ts:1 (added line)\n`);
  const sent = fakePr(fake, 1).comments.find((c) => c.id === 102)!;
  assert.equal(sent.anchor, { path: 'src/login.ts', line: 1, lineType: 'ADDED', fileType: 'TO' });
  const list = (await w.run(['pr', 'comment', 'list', '1', '--json'])).json().data;
  assert.equal(
    list.threads.map((t: any) => t.id),
    [10, 12, 15, 100, 102],
  );
  assert.equal(
    list.threads[1].replies.map((c: any) => c.text),
    ['Done in the next commit.', 'Now at least 12 characters.'],
  );
  w.dispose();
});

test('comment add refuses bad input before sending: --line without --path, no body, unknown file', async () => {
  const w = prWorld(fake);
  const n = fake.requests.length;
  const noPath = await w.run(['pr', 'comment', 'add', '1', '--line', '3', '--body', 'x']);
  assert.equal(
    [noPath.code, noPath.stderr],
    [2, 'error: --line needs --path: say which file the line is in\n'],
  );
  const noBody = await w.run(['pr', 'comment', 'add', '1']);
  assert.match(noBody.stderr, '--body TEXT (or --body-file FILE, - for stdin) is required');
  assert.is(fake.requests.length, n);
  const wrongFile = await w.run(['pr', 'comment', 'add', '1', '--path', 'nope.ts', '--body', 'x']);
  assert.is(wrongFile.code, 2);
  assert.match(wrongFile.stderr, 'nope.ts is not changed by this pull request');
  w.dispose();
});

test('comment add --dry-run plans the POST, flags a missing parent or file, and changes nothing', async () => {
  const w = prWorld(fake);
  const before = snapshot(fake);
  const n = fake.requests.length;
  const ok = (
    await w.run(['pr', 'comment', 'add', '1', '--path', 'README.md', '--body', 'x', '--dry-run', '--json'])
  ).json().data;
  assertPlan(ok);
  assert.equal([ok.predictedAction, ok.action.body.anchor.path], ['create', 'README.md']);
  const bad = (
    await w.run(['pr', 'comment', 'add', '1', '--reply-to', '999', '--body', 'x', '--dry-run', '--json'])
  ).json().data;
  assert.equal(bad.blockingReasons, ['comment 999 does not exist on pull request #1']);
  assert.equal(writesSince(fake, n), []);
  assert.is(snapshot(fake), before);
  w.dispose();
});

test('comment resolve resolves and reopens a thread; the list marks it; dry-run changes nothing', async () => {
  const w = prWorld(fake);
  const r = await w.run(['pr', 'comment', 'resolve', '1', '12', '--json']);
  assert.is(r.code, 0, r.stdout);
  assertSchema('pr-comment', r.json().data);
  assert.is(r.json().data.resolved, true);
  assert.match(
    (await w.run(['pr', 'comment', 'list', '1'])).stdout,
    '● alice · #12 · 2023-11-14 22:13 [thread resolved]',
  );
  const before = snapshot(fake);
  const n = fake.requests.length;
  const dry = (await w.run(['pr', 'comment', 'resolve', '1', '12', '--dry-run', '--json'])).json().data;
  assert.is(dry.predictedAction, 'no-op');
  const reopen = (
    await w.run(['pr', 'comment', 'resolve', '1', '12', '--reopen', '--dry-run', '--json'])
  ).json().data;
  assert.equal(
    [reopen.predictedAction, reopen.action.body],
    ['update', { version: 1, threadResolved: false }],
  );
  assert.equal(writesSince(fake, n), []);
  assert.is(snapshot(fake), before);
  const human = await w.run(['pr', 'comment', 'resolve', '1', '12', '--reopen']);
  assert.is(human.stdout, 'The thread of comment #12 is open\n');
  w.dispose();
});

test('tasks are blocker comments: list, create, resolve, delete, in JSON and for people', async () => {
  const w = prWorld(fake);
  const list = await w.run(['pr', 'task', 'list', '1', '--json']);
  assertSchema('pr-task-list', list.json().data);
  assert.equal([list.json().data.open, list.json().data.resolved], [1, 0]);
  const created = await w.run(['pr', 'task', 'create', '1', '--body', 'Update the changelog', '--json']);
  assert.is(created.code, 0, created.stdout);
  assertSchema('pr-comment', created.json().data);
  assert.equal([created.json().data.severity, created.json().data.state], ['BLOCKER', 'OPEN']);
  const id = String(created.json().data.id);
  assert.is(
    (await w.run(['pr', 'task', 'resolve', '1', id])).stdout,
    `Task #${id} is resolved: Update the changelog\n`,
  );
  const table = await w.run(['pr', 'task', 'list', '1']);
  assert.is(
    table.stdout,
    `#15\topen\talice\t2023-11-14 22:13\tAdd tests for the login form\n#${id}\tresolved\talice\t2023-11-14 22:15\tUpdate the changelog\n`,
  );
  const open = await w.run(['pr', 'task', 'list', '1', '--state', 'open', '--json']);
  assert.equal(
    open.json().data.tasks.map((t: any) => t.id),
    [15],
  );
  const del = await w.run(['pr', 'task', 'delete', '1', id, '--json']);
  assertSchema('pr-task-delete', del.json().data);
  assert.not.ok(fakePr(fake, 1).comments.some((c) => String(c.id) === id));
  const notTask = await w.run(['pr', 'task', 'resolve', '1', '12']);
  assert.is(notTask.code, 4, 'a normal comment is not a task');
  w.dispose();
});

test('task create, resolve and delete --dry-run change nothing', async () => {
  const w = prWorld(fake);
  const before = snapshot(fake);
  const n = fake.requests.length;
  for (const [argv, predicted] of [
    [['pr', 'task', 'create', '1', '--body', 'x'], 'create'],
    [['pr', 'task', 'resolve', '1', '15'], 'update'],
    [['pr', 'task', 'delete', '1', '15'], 'delete'],
  ] as const) {
    const r = await w.run([...argv, '--dry-run', '--json']);
    assert.is(r.code, 0, r.stdout);
    assertPlan(r.json().data);
    assert.is(r.json().data.predictedAction, predicted);
  }
  assert.equal(writesSince(fake, n), []);
  assert.is(snapshot(fake), before);
  w.dispose();
});

test.run();
