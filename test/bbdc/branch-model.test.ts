import * as assert from 'uvu/assert';
import { assertPlan, assertSchema, fakeSuite, writesSince } from './helpers/pr.ts';

const s = fakeSuite('bbdc branch model');
const { test, run } = s;
const defaults = [
  { id: 'BUGFIX', enabled: true, name: 'Bugfix', prefix: 'bugfix/' },
  { id: 'FEATURE', enabled: true, name: 'Feature', prefix: 'feature/' },
  { id: 'HOTFIX', enabled: true, name: 'Hotfix', prefix: 'hotfix/' },
  { id: 'RELEASE', enabled: true, name: 'Release', prefix: 'release/' },
];

test('inspect: the default model, in human and --json form', async () => {
  const json = (await run(['branch', 'model', 'inspect', '--json'])).json().data;
  assertSchema('branch-model', json);
  assert.equal(json, { repository: 'PROJ/api', development: { useDefault: true }, types: defaults });
  const human = await run(['branch', 'model', 'inspect']);
  assert.match(human.stdout, 'Development: (the default branch)\nProduction: none\n');
  assert.match(human.stdout, /Feature\s+feature\/\s+yes/);
});

test('update changes only what is given; the dry-run plans the PUT of the whole configuration', async () => {
  const n = s.fake.requests.length;
  const plan = (
    await run([
      'branch',
      'model',
      'update',
      '--production',
      'main',
      '--prefix',
      'feature=feat/',
      '--disable',
      'hotfix',
      '--dry-run',
      '--json',
    ])
  ).json().data;
  assertPlan(plan);
  assert.equal(writesSince(s.fake, n), []);
  assert.equal(
    [plan.action.method, plan.action.path],
    ['PUT', '/rest/branch-utils/latest/projects/PROJ/repos/api/branchmodel/configuration'],
  );
  assert.equal(plan.action.body, {
    development: { refId: null, useDefault: true },
    production: { refId: 'refs/heads/main', useDefault: false },
    types: [
      { id: 'BUGFIX', enabled: true, prefix: 'bugfix/' },
      { id: 'FEATURE', enabled: true, prefix: 'feat/' },
      { id: 'HOTFIX', enabled: false, prefix: 'hotfix/' },
      { id: 'RELEASE', enabled: true, prefix: 'release/' },
    ],
  });
  const r = await run([
    'branch',
    'model',
    'update',
    '--production',
    'main',
    '--prefix',
    'feature=feat/',
    '--disable',
    'hotfix',
    '--json',
  ]);
  assert.is(r.code, 0, r.stdout);
  assertSchema('branch-model', r.json().data);
  assert.equal(
    [r.json().data.changed, r.json().data.production],
    [true, { useDefault: false, branch: 'main' }],
  );
  const after = (await run(['branch', 'model', 'inspect', '--json'])).json().data;
  assert.equal(after.types[1].prefix, 'feat/');
  assert.equal(after.types[2].enabled, false);
  assert.equal(after.development, { useDefault: true }, 'the development branch was left as it was');
  const again = await run(['branch', 'model', 'update', '--prefix', 'feature=feat/']);
  assert.match(again.stdout, 'The branching model of PROJ/api already was as asked');
  const off = await run(['branch', 'model', 'update', '--production', 'none', '--json']);
  assert.not.ok('production' in off.json().data);
});

test('bad input is refused before any request; a read-only user is refused by the dry-run and the server', async () => {
  const cases: [string[], string][] = [
    [[], 'nothing to change'],
    [['--prefix', 'feature'], '--prefix "feature" must be TYPE=PREFIX'],
    [['--enable', 'chore'], '--enable "chore" must be one of bugfix, feature, hotfix, release'],
    [['--enable', 'hotfix', '--disable', 'hotfix'], 'hotfix is both enabled and disabled'],
    [['--development', 'none'], '--development cannot be none'],
  ];
  const n = s.fake.requests.length;
  for (const [flags, message] of cases) {
    const r = await run(['branch', 'model', 'update', ...flags, '--json']);
    assert.equal([r.code, r.json().error.kind], [2, 'usage'], flags.join(' '));
    assert.match(r.json().error.message, message);
  }
  assert.is(s.fake.requests.length, n);
  const dry = await run(['branch', 'model', 'update', '--disable', 'hotfix', '--dry-run', '--json'], 'bob');
  assert.equal([dry.code, dry.json().error.kind], [3, 'auth']);
  assert.match(
    dry.json().error.message,
    'bob lacks REPO_ADMIN on PROJ/api, which changing the branching model needs',
  );
  const real = await run(['branch', 'model', 'update', '--disable', 'hotfix', '--json'], 'bob');
  assert.is(real.code, 3);
});

test.run();
