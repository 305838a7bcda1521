import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { sha } from '../fake-bitbucket/core-state.ts';
import { credentials } from '../fake-bitbucket/state.ts';
import { withFake } from './helpers/fake.ts';
import { assertPlan, assertSchema, writesSince } from './helpers/pr.ts';
import { createWorld } from './helpers/world.ts';

const test = suite('bbdc repo comment');
let fake: Awaited<ReturnType<typeof withFake>>;
test.before(async () => {
  fake = await withFake();
});
test.after(async () => {
  await fake.stop();
});
const c2 = sha('13:2');
const base = `/rest/api/latest/projects/OPS/repos/tools/commits/${c2}/comments`;
const run = async (argv: string[], token = credentials.alice.token) => {
  const w = createWorld({ env: { BBDC_URL: fake.url, BBDC_TOKEN: token } });
  try {
    return await w.run([...argv, '-R', 'OPS/tools']);
  } finally {
    w.dispose();
  }
};

test('create: planned as the exact POST; a general, an inline comment and a reply', async () => {
  const n = fake.requests.length;
  const plan = (
    await run([
      'repo',
      'comment',
      'create',
      c2,
      '--path',
      'src/main.ts',
      '--line',
      '2',
      '--body',
      'Why hello?',
      '--dry-run',
      '--json',
    ])
  ).json().data;
  assertPlan(plan);
  assert.equal(
    [plan.action.method, plan.action.path, plan.action.body],
    [
      'POST',
      base,
      { text: 'Why hello?', anchor: { path: 'src/main.ts', line: 2, lineType: 'CONTEXT', fileType: 'TO' } },
    ],
  );
  assert.equal(writesSince(fake, n), []);
  const first = (await run(['repo', 'comment', 'create', c2, '--body', 'Nice commit', '--json'])).json().data;
  assertSchema('pr-comment', first);
  await run([
    'repo',
    'comment',
    'create',
    c2,
    '--path',
    'src/main.ts',
    '--line',
    '2',
    '--body',
    'Why hello?',
  ]);
  await run(
    ['repo', 'comment', 'create', c2, '--reply-to', String(first.id), '--body', 'Thanks'],
    credentials.bob.token,
  );
  const list = (await run(['repo', 'comment', 'list', c2, '--json'])).json().data;
  assertSchema('commit-comments', list);
  assert.equal(
    list.comments.map((c: { text: string; replies: { text: string }[] }) => [
      c.text,
      c.replies.map((r) => r.text),
    ]),
    [
      ['Nice commit', ['Thanks']],
      ['Why hello?', []],
    ],
  );
  assert.equal(
    (await run(['repo', 'comment', 'list', c2, '--path', 'src/main.ts', '--json'])).json().data.comments
      .length,
    1,
  );
  assert.is((await run(['repo', 'comment', 'list', 'f'.repeat(40)])).code, 4);
});

test('update and delete carry the version read; replies block a delete; only the author edits', async () => {
  const [first, second] = (await run(['repo', 'comment', 'list', c2, '--json'])).json().data.comments;
  const plan = (
    await run([
      'repo',
      'comment',
      'update',
      c2,
      String(second.id),
      '--body',
      'Why not hi?',
      '--dry-run',
      '--json',
    ])
  ).json().data;
  assert.equal(plan.action.body, { version: 0, text: 'Why not hi?' });
  const updated = (
    await run(['repo', 'comment', 'update', c2, String(second.id), '--body', 'Why not hi?', '--json'])
  ).json().data;
  assert.equal([updated.text, updated.version], ['Why not hi?', 1]);
  const notMine = await run(
    ['repo', 'comment', 'update', c2, String(second.id), '--body', 'x', '--json'],
    credentials.bob.token,
  );
  assert.is(notMine.code, 3);
  const blocked = await run(['repo', 'comment', 'delete', c2, String(first.id), '--json']);
  assert.equal([blocked.code, blocked.json().error.kind], [5, 'conflict']);
  const del = await run(['repo', 'comment', 'delete', c2, String(second.id), '--json']);
  assertSchema('commit-comments', del.json().data);
  assert.is((await run(['repo', 'comment', 'list', c2, '--json'])).json().data.comments.length, 1);
});

test.run();
