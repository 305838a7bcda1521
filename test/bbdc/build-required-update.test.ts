import * as assert from 'uvu/assert';
import { opsState } from '../fake-bitbucket/ops-state.ts';
import { assertPlan, assertSchema, fakeSuite, writesSince } from './helpers/pr.ts';

const s = fakeSuite('bbdc build required update', 'suite');
const { test, run } = s;

test('update keeps what is not given, plans the exact PUT, and is a no-op for the same builds', async () => {
  const created = (
    await run(['build', 'required', 'create', '--builds', 'ci', '--branch', 'main', '--json'])
  ).json().data;
  const id = String(created.check.id);
  const plan = (
    await run(['build', 'required', 'update', id, '--builds', 'ci,lint', '--dry-run', '--json'])
  ).json().data;
  assertPlan(plan);
  assert.equal(
    [plan.action.method, plan.action.path],
    ['PUT', `/rest/required-builds/latest/projects/PROJ/repos/api/condition/${id}`],
  );
  assert.equal(plan.action.body.buildParentKeys, ['ci', 'lint']);
  assert.is(plan.action.body.refMatcher.id, 'refs/heads/main');
  const done = (await run(['build', 'required', 'update', id, '--builds', 'ci,lint', '--json'])).json().data;
  assertSchema('build-required-create', done);
  assert.equal([done.check.buildKeys, done.check.branches], [['ci', 'lint'], 'main']);
  assert.equal(opsState(s.fake.state).requiredBuilds.find((c) => c.id === Number(id))?.buildParentKeys, [
    'ci',
    'lint',
  ]);
  const n = s.fake.requests.length;
  const same = (await run(['build', 'required', 'update', id, '--builds', 'ci,lint', '--json'])).json().data;
  assert.equal([same.check.id, writesSince(s.fake, n)], [Number(id), []]);
  const missing = await run(['build', 'required', 'update', '999', '--builds', 'ci', '--json']);
  assert.equal([missing.code, missing.json().error.kind], [5, 'conflict']);
  assert.is((await run(['build', 'required', 'update', id])).code, 2);
  assert.is((await run(['build', 'required', 'update', id, '--builds', 'x', '--json'], 'bob')).code, 3);
});

test.run();
