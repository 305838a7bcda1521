// `bbdc api` (a raw REST call) and `bbdc admin health`, against the fake server.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { credentials } from '../fake-bitbucket/state.ts';
import { runAgainst, withFake } from './helpers/fake.ts';
import { assertPlan, assertSchema } from './helpers/pr.ts';
import { createWorld } from './helpers/world.ts';

const test = suite('bbdc api and admin health');
let fake: Awaited<ReturnType<typeof withFake>>;
test.before.each(async () => {
  fake = await withFake();
});
test.after.each(async () => {
  await fake.stop();
});
const run = runAgainst(() => fake);
const labels = async () => (await run(['repo', 'label', 'list', '-R', 'PROJ/api', '--json'])).json().data;

test('api GET: the JSON answer as it came, pretty in human form; the token is never printed', async () => {
  const human = await run(['api', 'api/latest/projects/PROJ']);
  assert.is(human.code, 0, human.stderr);
  assert.equal(JSON.parse(human.stdout).key, 'PROJ');
  const json = await run(['api', '/rest/api/latest/projects/PROJ', '--json']);
  assertSchema('api', json.json().data);
  assert.is(json.json().data.key, 'PROJ');
  for (const r of [human, json]) assert.not.match(r.stdout + r.stderr, credentials.alice.token);
  assert.is(fake.requests.at(-1)!.path, '/rest/api/latest/projects/PROJ');
});

test('api --paginate follows every page of a GET and prints all values in one array; --field is its query', async () => {
  const big = await withFake('large');
  try {
    const r = await runAgainst(() => big)([
      'api',
      'api/latest/repos',
      '-X',
      'GET',
      '--paginate',
      '-f',
      'projectkey=BIG',
      '--json',
    ]);
    assert.is(r.code, 0, r.stdout);
    assertSchema('api', r.json().data);
    assert.is(r.json().data.length, 5000);
    assert.is(r.json().data[4999].slug, 'repo-5000');
    const pages = big.requests.filter((q) => q.path === '/rest/api/latest/repos');
    assert.equal(
      pages.map((q) => [q.query.get('projectkey'), q.query.get('start')]),
      [0, 1000, 2000, 3000, 4000].map((s) => ['BIG', String(s)]),
    );
  } finally {
    await big.stop();
  }
  const refused = await run([
    'api',
    'api/latest/repos',
    '-X',
    'GET',
    '--paginate',
    '-f',
    'limit=2',
    '--json',
  ]);
  assert.equal(
    [refused.code, refused.json().error.message],
    [2, '--paginate sets limit itself (pages of 1000 from the first); leave out --field limit'],
  );
});

test('api with --field POSTs a JSON body (method defaults to POST); --dry-run plans it and sends nothing', async () => {
  const n = fake.requests.length;
  const dry = await run([
    'api',
    'api/latest/projects/PROJ/repos/api/labels',
    '-f',
    'name=checked',
    '--dry-run',
    '--json',
  ]);
  assertPlan(dry.json().data);
  assert.equal(
    [dry.json().data.action.method, dry.json().data.action.path, dry.json().data.action.body],
    ['POST', '/rest/api/latest/projects/PROJ/repos/api/labels', { name: 'checked' }],
  );
  assert.equal(
    fake.requests.slice(n).filter((q) => q.method !== 'GET'),
    [],
  );
  assert.not.ok((await labels()).labels?.includes?.('checked'));
  const real = await run([
    'api',
    'api/latest/projects/PROJ/repos/api/labels',
    '-f',
    'name=checked',
    '--json',
  ]);
  assert.is(real.code, 0, real.stdout);
  assert.equal(real.json().data, { name: 'checked' });
  assert.match(JSON.stringify(await labels()), 'checked');
  const del = await run(['api', 'api/latest/projects/PROJ/repos/api/labels/checked', '-X', 'DELETE']);
  assert.equal([del.code, del.stdout], [0, '']);
});

test('api --input sends a JSON file (- for stdin) as the body; -F types true/false/null/numbers', async () => {
  const w = createWorld({
    env: { BBDC_URL: fake.url, BBDC_TOKEN: credentials.alice.token },
    stdin: '{"name":"from-stdin"}',
  });
  const r = await w.run(['api', 'api/latest/projects/PROJ/repos/api/labels', '--input', '-', '--json']);
  w.dispose();
  assert.equal(r.json().data, { name: 'from-stdin' });
  const typed = await run([
    'api',
    'api/latest/x',
    '-X',
    'PUT',
    '-F',
    'on=true',
    '-F',
    'n=12',
    '-F',
    's=12a',
    '--dry-run',
    '--json',
  ]);
  assert.equal(typed.json().data.action.body, { on: true, n: 12, s: '12a' });
});

test('api refuses a URL (the token would leave the server), dot segments, a query string and --paginate on a write', async () => {
  const cases: [string[], string][] = [
    [['api', 'https://evil.example/rest/api/latest/projects'], 'is a URL: give the path under /rest/'],
    [['api', '//evil.example/x'], 'is a URL'],
    [['api', 'api/latest/projects/PROJ/repos/..'], 'has an empty, "." or ".." segment'],
    [['api', 'api/latest/projects?limit=1'], 'pass each parameter with --field'],
    [
      ['api', 'api/latest/projects', '-X', 'POST', '--paginate'],
      '--paginate follows the pages of a GET only',
    ],
    [['api', 'api/latest/projects', '-f', 'novalue'], '--field "novalue" must be name=value'],
    [
      ['api', 'api/latest/projects', '--input', '/nonexistent.json'],
      '--input /nonexistent.json: cannot read it',
    ],
  ];
  const n = fake.requests.length;
  for (const [argv, message] of cases) {
    const r = await run([...argv, '--json']);
    assert.equal([r.code, r.json().error.kind], [2, 'usage'], argv.join(' '));
    assert.match(r.json().error.message, message);
  }
  assert.is(fake.requests.length, n, 'nothing was sent');
});

test('api: a server error is the usual envelope and exit code', async () => {
  const r = await run(['api', 'api/latest/projects/NOPE', '--json']);
  assert.equal([r.code, r.json().error.kind], [4, 'not_found']);
});

test('admin health: version and, for a system administrator, the cluster; others are told why not', async () => {
  const human = await run(['admin', 'health']);
  assert.is(human.code, 0, human.stderr);
  assert.match(human.stdout, `${fake.url}: Bitbucket 9.4.0 (build 9004000) answers`);
  assert.match(human.stdout, 'Cluster: running, 1 node(s)');
  assert.match(human.stdout, /node-1\s+bitbucket-1\s+10\.0\.0\.1:5701\s+9\.4\.0\s+yes/);
  const json = (await run(['admin', 'health', '--json'])).json().data;
  assertSchema('admin-health', json);
  assert.equal(json.cluster, {
    running: true,
    nodes: [
      { id: 'node-1', name: 'bitbucket-1', address: '10.0.0.1:5701', buildVersion: '9.4.0', local: true },
    ],
  });
  const bob = await run(['admin', 'health', '--json'], credentials.bob.token);
  assert.is(bob.code, 0, bob.stdout);
  assertSchema('admin-health', bob.json().data);
  assert.equal(
    [bob.json().data.healthy, bob.json().data.clusterUnavailable],
    [true, 'reading the cluster needs SYS_ADMIN'],
  );
  assert.match(
    (await run(['admin', 'health'], credentials.bob.token)).stdout,
    'Cluster: not read (reading the cluster needs SYS_ADMIN)',
  );
});

test.run();
