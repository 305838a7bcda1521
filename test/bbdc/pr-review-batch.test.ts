import * as assert from 'uvu/assert';
import { assertPlan, assertSchema, fakePr, fakeSuite, writesSince } from './helpers/pr.ts';

const s = fakeSuite('bbdc pr review batch / jira', 'suite');
const { test, run } = s;
const texts = (r: { json(): { data: { comments: { text: string }[] } } }) =>
  r.json().data.comments.map((c) => c.text);

test('pending comments stay private to their author until the batch is completed', async () => {
  const plan = (
    await run(['pr', 'comment', 'add', '1', '--pending', '--body', 'Rename this', '--dry-run', '--json'])
  ).json().data;
  assert.equal(plan.action.body, { text: 'Rename this', state: 'PENDING' });
  await run(['pr', 'comment', 'add', '1', '--pending', '--body', 'Rename this']);
  await run([
    'pr',
    'comment',
    'add',
    '1',
    '--pending',
    '--path',
    'src/login.ts',
    '--line',
    '1',
    '--body',
    'Validate input',
  ]);
  const mine = await run(['pr', 'review', 'get', '1', '--json']);
  assertSchema('pr-review-batch', mine.json().data);
  assert.equal(texts(mine), ['Rename this', 'Validate input']);
  assert.equal(texts(await run(['pr', 'review', 'get', '1', '--json'], 'bob')), []);
  const bobSees = (await run(['pr', 'comment', 'list', '1', '--json'], 'bob')).json().data;
  assert.not.match(JSON.stringify(bobSees), 'Rename this');
});

test('complete publishes the batch with a status in one PUT; the plan lists what goes out', async () => {
  const n = s.fake.requests.length;
  const plan = (
    await run([
      'pr',
      'review',
      'complete',
      '1',
      '--needs-work',
      '--body',
      'See inline',
      '--dry-run',
      '--json',
    ])
  ).json().data;
  assertPlan(plan);
  assert.equal(
    [plan.action.method, plan.action.path, plan.action.body, plan.reasons.length],
    [
      'PUT',
      '/rest/api/latest/projects/PROJ/repos/api/pull-requests/1/review',
      { commentText: 'See inline', participantStatus: 'needs_work' },
      2,
    ],
  );
  assert.equal(writesSince(s.fake, n), []);
  const done = (
    await run(['pr', 'review', 'complete', '1', '--needs-work', '--body', 'See inline', '--json'])
  ).json().data;
  assertSchema('pr-review-batch', done);
  assert.equal([done.action, done.count, done.status], ['published', 2, 'NEEDS_WORK']);
  assert.equal(fakePr(s.fake, 1).participants.find((p) => p.name === 'alice')?.status, 'NEEDS_WORK');
  const bobSees = JSON.stringify((await run(['pr', 'comment', 'list', '1', '--json'], 'bob')).json().data);
  assert.match(bobSees, 'Rename this');
  assert.match(bobSees, 'See inline');
  const empty = await run(['pr', 'review', 'complete', '1', '--json']);
  assert.equal([empty.code, empty.json().error.kind], [5, 'conflict']);
  assert.is((await run(['pr', 'review', 'complete', '1', '--approve', '--needs-work'])).code, 2);
});

test('discard drops the batch; with nothing pending it sends nothing', async () => {
  await run(['pr', 'comment', 'add', '1', '--pending', '--body', 'Maybe not']);
  const d = (await run(['pr', 'review', 'discard', '1', '--json'])).json().data;
  assert.equal([d.action, d.count], ['discarded', 1]);
  assert.not.ok(fakePr(s.fake, 1).comments.some((c) => c.text === 'Maybe not'));
  const n = s.fake.requests.length;
  const none = (await run(['pr', 'review', 'discard', '1', '--json'])).json().data;
  assert.equal([none.count, writesSince(s.fake, n)], [0, []]);
});

test('pr jira: the issue keys the server links to the pull request', async () => {
  fakePr(s.fake, 2).title = 'API-12 Search API';
  const d = (await run(['pr', 'jira', '2', '--json'])).json().data;
  assertSchema('pr-jira', d);
  assert.equal(d.issues, [{ key: 'API-12', url: 'https://jira.example.test/browse/API-12' }]);
  assert.is((await run(['pr', 'jira', '2'])).stdout, 'API-12\thttps://jira.example.test/browse/API-12\n');
});

test.run();
