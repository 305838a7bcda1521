import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { opsState, snapshotOps } from '../fake-bitbucket/ops-state.ts';
import { credentials } from '../fake-bitbucket/state.ts';
import { runAgainst, withFake } from './helpers/fake.ts';

const test = suite('bbdc webhook');
let fake: Awaited<ReturnType<typeof withFake>>;
test.before(async () => {
  fake = await withFake();
});
test.after(async () => {
  await fake.stop();
});
const run = runAgainst(() => fake);
const writes = (from: number) => fake.requests.slice(from).filter((q) => q.method !== 'GET');
const hooksOf = (target: string) => opsState(fake.state).webhooks.filter((w) => w.target === target);

test('webhook list: a table, and --json with scope, paging and no secrets', async () => {
  const human = await run(['webhook', 'list', '-R', 'PROJ/api']);
  assert.is(human.code, 0, human.stderr);
  assert.is(human.stdout, '1\tci\thttps://ci.example.test/hook\trepo:refs_changed\tyes\n');
  const json = await run(['webhook', 'list', '-R', 'PROJ/api', '--json']);
  assert.equal(json.json().data, {
    scope: { type: 'repository', id: 'PROJ/api' },
    webhooks: [
      {
        id: 1,
        name: 'ci',
        url: 'https://ci.example.test/hook',
        events: ['repo:refs_changed'],
        active: true,
        sslVerificationRequired: true,
        createdDate: '2023-11-14T22:13:20.000Z',
        updatedDate: '2023-11-14T22:13:20.000Z',
      },
    ],
    count: 1,
    start: 0,
    truncated: false,
  });
  assert.not.match(json.stdout, 'ci-webhook-secret');
});

test('webhook list --limit and --start page through, sending start and limit to the server', async () => {
  for (const name of ['w1', 'w2', 'w3'])
    assert.is(
      (
        await run([
          'webhook',
          'create',
          '-R',
          'PROJ/web',
          '--name',
          name,
          '--url',
          `https://x.test/${name}`,
          '--events',
          'pr:opened',
        ])
      ).code,
      0,
    );
  const n = fake.requests.length;
  const first = await run(['webhook', 'list', '-R', 'PROJ/web', '--limit', '2', '--json']);
  const data = first.json().data;
  assert.equal([data.count, data.truncated, data.nextStart], [2, true, 2]);
  const second = (
    await run(['webhook', 'list', '-R', 'PROJ/web', '--limit', '2', '--start', '2', '--json'])
  ).json().data;
  assert.equal(
    second.webhooks.map((w: { name: string }) => w.name),
    ['w3'],
  );
  assert.equal([second.start, second.truncated, second.nextStart], [2, false, undefined]);
  const pages = fake.requests.slice(n).map((q) => [q.query.get('start'), q.query.get('limit')]);
  assert.equal(pages, [
    ['0', '2'],
    ['2', '2'],
  ]);
  const human = await run(['webhook', 'list', '-R', 'PROJ/web', '--limit', '1']);
  assert.match(human.stderr, 'More webhooks: run again with --start 1.');
  const bad = await run(['webhook', 'list', '-R', 'PROJ/web', '--start', '-1']);
  assert.is(bad.code, 2);
  assert.match(bad.stderr, '--start "-1" must be a whole number of 0 or more');
});

test('webhook create, get, update, test and delete against the server', async () => {
  const created = await run([
    'webhook',
    'create',
    '-R',
    'OPS/tools',
    '--name',
    'deploy',
    '--url',
    'https://deploy.example.test/in',
    '--events',
    'repo:refs_changed',
    '--events',
    'pr:merged,pr:opened',
    '--secret',
    's3cret-value',
    '--json',
  ]);
  assert.is(created.code, 0, created.stdout);
  const hook = created.json().data;
  assert.equal(hook.events, ['pr:merged', 'pr:opened', 'repo:refs_changed']);
  assert.not.match(created.stdout, 's3cret-value');
  assert.equal(hooksOf('OPS/tools')[0].configuration, { secret: 's3cret-value' });
  const got = await run(['webhook', 'get', String(hook.id), '-R', 'OPS/tools']);
  assert.match(got.stdout, 'name\tdeploy\n');
  assert.match(got.stdout, 'events\tpr:merged, pr:opened, repo:refs_changed\n');
  const updated = await run([
    'webhook',
    'update',
    String(hook.id),
    '-R',
    'OPS/tools',
    '--active',
    'false',
    '--json',
  ]);
  assert.equal(updated.json().data.active, false);
  assert.equal(hooksOf('OPS/tools')[0].configuration, { secret: 's3cret-value' }, 'the secret is kept');
  assert.equal(hooksOf('OPS/tools')[0].events, ['pr:merged', 'pr:opened', 'repo:refs_changed']);
  const tested = await run(['webhook', 'test', String(hook.id), '-R', 'OPS/tools']);
  assert.is(tested.stdout, 'OK: https://deploy.example.test/in answered HTTP 200 (200)\n');
  const testCall = fake.requests.findLast((q) => q.path.endsWith('/webhooks/test'))!;
  assert.equal(
    [testCall.query.get('webhookId'), testCall.query.get('url')],
    [String(hook.id), 'https://deploy.example.test/in'],
  );
  const deleted = await run(['webhook', 'delete', String(hook.id), '-R', 'OPS/tools']);
  assert.is(deleted.stdout, `Deleted webhook ${hook.id} of repository OPS/tools.\n`);
  assert.equal(hooksOf('OPS/tools'), []);
  const gone = await run(['webhook', 'get', String(hook.id), '-R', 'OPS/tools', '--json']);
  assert.equal([gone.code, gone.json().error.kind], [4, 'not_found']);
});

test('webhook test reports an unreachable URL as FAILED in both forms', async () => {
  const c = await run([
    'webhook',
    'create',
    '-R',
    'PROJ/api',
    '--name',
    'dead',
    '--url',
    'https://unreachable.test/',
    '--events',
    'pr:opened',
    '--json',
  ]);
  const id = String(c.json().data.id);
  const human = await run(['webhook', 'test', id, '-R', 'PROJ/api']);
  assert.match(human.stdout, 'FAILED: https://unreachable.test/ answered no HTTP answer');
  const json = (await run(['webhook', 'test', id, '-R', 'PROJ/api', '--json'])).json().data;
  assert.equal([json.ok, json.outcome], [false, 'ERROR']);
  await run(['webhook', 'delete', id, '-R', 'PROJ/api']);
});

test('bad flags are usage errors naming the flag, before any request', async () => {
  const n = fake.requests.length;
  const cases: [string[], string][] = [
    [
      ['webhook', 'create', '-R', 'PROJ/api', '--name', 'x', '--url', 'ftp://x', '--events', 'pr:opened'],
      '--url "ftp://x" must be an http:// or https:// URL',
    ],
    [
      ['webhook', 'create', '-R', 'PROJ/api', '--name', 'x', '--url', 'https://x.test', '--events', 'opened'],
      '--events "opened" is not an event id',
    ],
    [
      ['webhook', 'create', '-R', 'PROJ/api', '--name', 'x'],
      '--url, --events are required to create a webhook',
    ],
    [['webhook', 'update', '3', '-R', 'PROJ/api'], 'nothing to change'],
    [['webhook', 'get', 'abc', '-R', 'PROJ/api'], 'webhook id "abc" must be a whole number'],
    [
      ['webhook', 'update', '1', '-R', 'PROJ/api', '--active', 'maybe'],
      '--active "maybe" must be one of true, false',
    ],
  ];
  for (const [argv, message] of cases) {
    const r = await run(argv);
    assert.is(r.code, 2, argv.join(' '));
    assert.match(r.stderr, message);
  }
  assert.is(fake.requests.length, n);
});

test('project webhook list, create and delete act on the named project', async () => {
  const list = await run(['project', 'webhook', 'list', 'proj']);
  assert.is(list.stdout, '2\taudit\thttps://audit.example.test/events\tpr:merged,repo:refs_changed\tyes\n');
  const created = await run([
    'project',
    'webhook',
    'create',
    'PROJ',
    '--name',
    'chat',
    '--url',
    'https://chat.test/in',
    '--events',
    'pr:opened',
    '--json',
  ]);
  const id = created.json().data.id;
  assert.equal(
    hooksOf('PROJ').map((w) => w.name),
    ['audit', 'chat'],
  );
  const deleted = await run(['project', 'webhook', 'delete', 'PROJ', String(id), '--json']);
  assert.equal(deleted.json().data, { scope: { type: 'project', id: 'PROJ' }, id, deleted: true });
  assert.equal(
    hooksOf('PROJ').map((w) => w.name),
    ['audit'],
  );
  const bob = await run(['project', 'webhook', 'list', 'PROJ', '--json'], credentials.bob.token);
  assert.equal([bob.code, bob.json().error.kind], [3, 'auth']);
});

test('project webhook update changes only the given field of the project webhook; test posts to its URL', async () => {
  const before = hooksOf('PROJ')[0];
  const { url, events } = before;
  const dry = await run([
    'project',
    'webhook',
    'update',
    'PROJ',
    '2',
    '--name',
    'audit2',
    '--dry-run',
    '--json',
  ]);
  assert.equal(
    [dry.json().data.action.method, dry.json().data.action.path, hooksOf('PROJ')[0].name],
    ['PUT', '/rest/api/latest/projects/PROJ/webhooks/2', 'audit'],
  );
  const human = await run(['project', 'webhook', 'update', 'PROJ', '2', '--name', 'audit2']);
  assert.is(human.code, 0, human.stderr);
  assert.match(human.stdout, 'Updated webhook 2 "audit2".');
  assert.equal(
    [hooksOf('PROJ')[0].name, hooksOf('PROJ')[0].url, hooksOf('PROJ')[0].events],
    ['audit2', url, events],
  );
  const json = await run(['project', 'webhook', 'update', 'PROJ', '2', '--name', 'audit', '--json']);
  assert.equal([json.json().data.id, json.json().data.name], [2, 'audit']);
  const tested = await run(['project', 'webhook', 'test', 'PROJ', '2', '--json']);
  assert.equal(tested.json().data, {
    id: 2,
    url,
    ok: true,
    statusCode: 200,
    outcome: 'SUCCESS',
    description: '200',
  });
  const call = fake.requests.findLast((q) => q.path.endsWith('/webhooks/test'))!;
  assert.equal(
    [call.path, call.query.get('webhookId')],
    ['/rest/api/latest/projects/PROJ/webhooks/test', '2'],
  );
  const text = await run(['project', 'webhook', 'test', 'PROJ', '2']);
  assert.is(text.stdout, `OK: ${url} answered HTTP 200 (200)\n`);
  const missing = await run(['project', 'webhook', 'update', 'PROJ', '99', '--name', 'x', '--json']);
  assert.equal([missing.code, missing.json().error.kind], [4, 'not_found']);
});

test('--dry-run plans create, update and delete without changing the webhooks', async () => {
  const before = snapshotOps(fake.state);
  const n = fake.requests.length;
  const create = (
    await run([
      'webhook',
      'create',
      '-R',
      'PROJ/api',
      '--name',
      'ci',
      '--url',
      'https://ci.example.test/hook',
      '--events',
      'pr:opened',
      '--secret',
      'abcdef',
      '--dry-run',
      '--json',
    ])
  ).json().data;
  assert.is(create.predictedAction, 'create');
  assert.equal(create.action.body.configuration, { secret: '***' });
  assert.match(
    create.reasons.join('\n'),
    'webhook 1 "ci" already posts to https://ci.example.test/hook; this adds another',
  );
  const update = (
    await run(['webhook', 'update', '1', '-R', 'PROJ/api', '--name', 'ci2', '--dry-run', '--json'])
  ).json().data;
  assert.equal([update.predictedAction, update.reasons[1]], ['update', 'changes: name']);
  assert.equal(update.action.body.configuration, { secret: '***' });
  const same = (
    await run(['webhook', 'update', '1', '-R', 'PROJ/api', '--active', 'true', '--dry-run', '--json'])
  ).json().data;
  assert.is(same.predictedAction, 'no-op');
  const del = await run(['webhook', 'delete', '1', '-R', 'PROJ/api', '--dry-run']);
  assert.match(del.stdout, 'Dry run: would delete webhook 1 of repository PROJ/api');
  const missing = (await run(['webhook', 'delete', '99', '-R', 'PROJ/api', '--dry-run', '--json'])).json()
    .data;
  assert.equal(
    [missing.predictedAction, missing.blockingReasons],
    ['conflict', ['webhook 99 does not exist in repository PROJ/api']],
  );
  const project = (await run(['project', 'webhook', 'delete', 'PROJ', '2', '--dry-run', '--json'])).json()
    .data;
  assert.is(project.predictedAction, 'delete');
  const projectCreate = (
    await run([
      'project',
      'webhook',
      'create',
      'PROJ',
      '--name',
      'x',
      '--url',
      'https://x.test',
      '--events',
      'pr:opened',
      '--dry-run',
      '--json',
    ])
  ).json().data;
  assert.is(projectCreate.action.path, '/rest/api/latest/projects/PROJ/webhooks');
  assert.equal(writes(n), []);
  assert.is(snapshotOps(fake.state), before);
});

test.run();
