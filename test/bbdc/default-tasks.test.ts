import * as assert from 'uvu/assert';
import { assertPlan, assertSchema, fakeSuite, writesSince } from './helpers/pr.ts';

const s = fakeSuite('bbdc default-task', 'suite');
const { test, run } = s;

test('repo default-task: add (planned as the POST, no-op when it exists), list, update, delete; admins only', async () => {
  const plan = (
    await run([
      'repo',
      'default-task',
      'add',
      '--description',
      'Update the changelog',
      '--target',
      'main',
      '--dry-run',
      '--json',
    ])
  ).json().data;
  assertPlan(plan);
  assert.equal(
    [plan.action.method, plan.action.path],
    ['POST', '/rest/default-tasks/latest/projects/PROJ/repos/api/tasks'],
  );
  assert.equal(plan.action.body.targetMatcher.id, 'refs/heads/main');
  const added = (
    await run([
      'repo',
      'default-task',
      'add',
      '--description',
      'Update the changelog',
      '--target',
      'main',
      '--json',
    ])
  ).json().data;
  assertSchema('default-task', added);
  const n = s.fake.requests.length;
  const again = (
    await run([
      'repo',
      'default-task',
      'add',
      '--description',
      'Update the changelog',
      '--target',
      'main',
      '--json',
    ])
  ).json().data;
  assert.equal([again.changed, writesSince(s.fake, n)], [false, []]);
  const list = (await run(['repo', 'default-task', 'list', '--json'])).json().data;
  assertSchema('default-task-list', list);
  assert.equal(
    list.tasks.map((t: { description: string; target: string }) => [t.description, t.target]),
    [['Update the changelog', 'main']],
  );
  const id = String(added.task.id);
  const upd = (
    await run(['repo', 'default-task', 'update', id, '--description', 'Update CHANGELOG.md', '--json'])
  ).json().data;
  assert.is(upd.task.description, 'Update CHANGELOG.md');
  const denied = await run(['repo', 'default-task', 'delete', id, '--json'], 'bob');
  assert.is(denied.code, 3);
  await run(['repo', 'default-task', 'delete', id]);
  assert.equal((await run(['repo', 'default-task', 'list', '--json'])).json().data.tasks, []);
  const missing = await run(['repo', 'default-task', 'delete', id, '--json']);
  assert.equal([missing.code, missing.json().error.kind], [5, 'conflict']);
  assert.is((await run(['repo', 'default-task', 'add'])).code, 2);
});

test('project default-task: the same for a project', async () => {
  const added = (
    await run(['project', 'default-task', 'add', 'PROJ', '--description', 'Link the ticket', '--json'])
  ).json().data;
  assert.equal([added.scope, added.task.source, added.task.target], ['PROJ', 'any', 'any']);
  assert.is(
    (await run(['project', 'default-task', 'list', 'PROJ'])).stdout,
    `${added.task.id}\tany\tany\tLink the ticket\n`,
  );
  const del = await run([
    'project',
    'default-task',
    'delete',
    'PROJ',
    String(added.task.id),
    '--dry-run',
    '--json',
  ]);
  assert.is(del.json().data.action.path, `/rest/default-tasks/latest/projects/PROJ/tasks/${added.task.id}`);
});

test.run();
