import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ciState } from '../fake-bitbucket/ci-state.ts';
import { withFake } from './helpers/fake.ts';
import { assertPlan, assertSchema, prWorld, writesSince } from './helpers/pr.ts';

const test = suite('bbdc insights');
let fake: Awaited<ReturnType<typeof withFake>>;
test.before(async () => {
  fake = await withFake();
});
test.after(async () => {
  await fake.stop();
});
// PROJ/api's feature/login tip, the latest commit of pull request #1.
const commit = '02'.repeat(20);
const run = async (argv: string[], user: 'alice' | 'bob' = 'alice') => {
  const w = prWorld(fake, user);
  try {
    return await w.run(argv);
  } finally {
    w.dispose();
  }
};
const reportsPath = `/rest/insights/latest/projects/PROJ/repos/api/commits/${commit}/reports`;

test('report set: planned as the exact PUT, created, then replaced; bad flags are usage errors', async () => {
  const argv = [
    'insights',
    'report',
    'set',
    commit,
    'sonar',
    '--title',
    'SonarQube',
    '--result',
    'pass',
    '--data',
    'Coverage=87.5',
    '--data',
    'Gate=true',
    '--data',
    'Dashboard=https://sonar.example.test/x',
    '--data',
    'Owner=team-a',
  ];
  const n = fake.requests.length;
  const plan = (await run([...argv, '--dry-run', '--json'])).json().data;
  assertPlan(plan);
  const body = {
    title: 'SonarQube',
    data: [
      { title: 'Coverage', type: 'NUMBER', value: 87.5 },
      { title: 'Gate', type: 'BOOLEAN', value: true },
      {
        title: 'Dashboard',
        type: 'LINK',
        value: { linktext: 'https://sonar.example.test/x', href: 'https://sonar.example.test/x' },
      },
      { title: 'Owner', type: 'TEXT', value: 'team-a' },
    ],
    result: 'PASS',
  };
  assert.equal(
    [plan.predictedAction, plan.action.method, plan.action.path, plan.action.body],
    ['create', 'PUT', `${reportsPath}/sonar`, body],
  );
  assert.equal(writesSince(fake, n), []);
  const m = fake.requests.length;
  const created = await run([...argv, '--json']);
  assertSchema('insights-report', created.json().data);
  assert.equal(
    writesSince(fake, m).map((q) => `${q.method} ${q.path}`),
    [`PUT ${reportsPath}/sonar`],
  );
  const again = (await run([...argv, '--dry-run', '--json'])).json().data;
  assert.is(again.predictedAction, 'update');
  assert.is((await run(['insights', 'report', 'set', commit, 'x'])).code, 2);
  const seven = [
    '--data',
    'a=1',
    '--data',
    'b=1',
    '--data',
    'c=1',
    '--data',
    'd=1',
    '--data',
    'e=1',
    '--data',
    'f=1',
    '--data',
    'g=1',
  ];
  const tooMany = await run(['insights', 'report', 'set', commit, 'x', '--title', 'X', ...seven]);
  assert.equal([tooMany.code, tooMany.stderr.includes('at most 6 data items')], [2, true]);
  const short = await run(['insights', 'report', 'set', 'abc123', 'x', '--title', 'X']);
  assert.equal([short.code, short.stderr.includes('not a full 40-character commit id')], [2, true]);
});

test('report list and get: table, JSON by schema, and a missing report is not found', async () => {
  const list = await run(['insights', 'report', 'list', commit]);
  assert.match(list.stdout, /^sonar\tPASS\tSonarQube\tCoverage=87.5, Gate=true, /);
  const d = (await run(['insights', 'report', 'list', commit, '--json'])).json().data;
  assertSchema('insights-report-list', d);
  assert.equal(
    d.reports.map((r: { key: string }) => r.key),
    ['sonar'],
  );
  const one = await run(['insights', 'report', 'get', commit, 'sonar']);
  assert.match(one.stdout, 'SonarQube (sonar): PASS\n  Coverage: 87.5\n  Gate: true');
  const missing = await run(['insights', 'report', 'get', commit, 'nope', '--json']);
  assert.equal([missing.code, missing.json().error.kind], [4, 'not_found']);
  const noCommit = await run(['insights', 'report', 'list', 'f'.repeat(40), '--json']);
  assert.is(noCommit.code, 4);
});

test('annotations: add, set by external id, list across reports, delete one; none on a missing report', async () => {
  const add = await run([
    'insights',
    'annotation',
    'add',
    commit,
    'sonar',
    '--path',
    'src/login.ts',
    '--line',
    '2',
    '--severity',
    'high',
    '--type',
    'bug',
    '--message',
    'Null dereference',
    '--external-id',
    'S1',
    '--json',
  ]);
  assert.is(add.code, 0, add.stdout);
  assertSchema('insights-annotations', add.json().data);
  const setPlan = (
    await run([
      'insights',
      'annotation',
      'set',
      commit,
      'sonar',
      'S2',
      '--severity',
      'low',
      '--message',
      'Style',
      '--dry-run',
      '--json',
    ])
  ).json().data;
  assert.equal([setPlan.action.method, setPlan.action.path], ['PUT', `${reportsPath}/sonar/annotations/S2`]);
  await run([
    'insights',
    'annotation',
    'set',
    commit,
    'sonar',
    'S2',
    '--severity',
    'low',
    '--message',
    'Style',
  ]);
  const list = (await run(['insights', 'annotation', 'list', commit, '--json'])).json().data;
  assertSchema('insights-annotations', list);
  assert.equal(
    list.annotations.map((a: { externalId: string; severity: string }) => [a.externalId, a.severity]),
    [
      ['S1', 'HIGH'],
      ['S2', 'LOW'],
    ],
  );
  const human = await run(['insights', 'annotation', 'list', commit, '--report', 'sonar']);
  assert.match(human.stdout, 'high\tsrc/login.ts:2\tNull dereference\tsonar\tS1\n');
  const del = (
    await run([
      'insights',
      'annotation',
      'delete',
      commit,
      'sonar',
      '--external-id',
      'S1',
      '--dry-run',
      '--json',
    ])
  ).json().data;
  assert.is(del.action.path, `${reportsPath}/sonar/annotations?externalId=S1`);
  await run(['insights', 'annotation', 'delete', commit, 'sonar', '--external-id', 'S1']);
  assert.equal(
    ciState(fake.state)
      .annotations.get(`PROJ/api@${commit}`)!
      .map((a) => a.externalId),
    ['S2'],
  );
  const orphan = await run([
    'insights',
    'annotation',
    'add',
    commit,
    'nope',
    '--severity',
    'low',
    '--message',
    'x',
    '--json',
  ]);
  assert.equal([orphan.code, orphan.json().error.kind], [5, 'conflict']);
  assert.match(orphan.json().error.message, 'has no report nope');
  const missingFlag = await run(['insights', 'annotation', 'add', commit, 'sonar', '--message', 'x']);
  assert.equal([missingFlag.code, missingFlag.stderr.includes('--severity is required')], [2, true]);
});

test('pr checks shows the Code Insights reports of the same commit', async () => {
  const r = await run(['pr', 'checks', '1']);
  assert.match(r.stdout, '\nCode Insights\nsonar\tPASS\tSonarQube\t');
  const d = (await run(['pr', 'checks', '1', '--json'])).json().data;
  assertSchema('pr-checks', d);
  assert.equal(
    d.reports.map((x: { key: string }) => x.key),
    ['sonar'],
  );
});

test('report delete: removes the report and its annotations; a second delete is a no-op', async () => {
  const d = await run(['insights', 'report', 'delete', commit, 'sonar', '--json']);
  assertSchema('insights-report-delete', d.json().data);
  assert.is(d.json().data.deleted, true);
  assert.equal(ciState(fake.state).annotations.get(`PROJ/api@${commit}`), []);
  const n = fake.requests.length;
  const again = (await run(['insights', 'report', 'delete', commit, 'sonar', '--json'])).json().data;
  assert.equal([again.deleted, writesSince(fake, n)], [false, []]);
});

test.run();
