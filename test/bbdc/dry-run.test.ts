import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { defineCommand } from '../../src/bbdc/command.ts';
import { credentials } from '../fake-bitbucket/state.ts';
import { withFake } from './helpers/fake.ts';
import { createWorld, memoryKeyring } from './helpers/world.ts';

const test = suite('bbdc --dry-run plans');
let fake: Awaited<ReturnType<typeof withFake>>;
test.before(async () => {
  fake = await withFake();
});
test.after(async () => {
  await fake.stop();
});
const world = (token = credentials.alice.token) =>
  createWorld({ env: { BBDC_URL: fake.url, BBDC_TOKEN: token } });
const writes = (from: number) => fake.requests.slice(from).filter((q) => q.method !== 'GET');

test('repo create --dry-run predicts create from read-only calls and changes nothing', async () => {
  const w = world();
  const n = fake.requests.length;
  const r = await w.run(['repo', 'create', 'new-svc', '--project', 'PROJ', '--dry-run', '--json']);
  assert.is(r.code, 0, r.stderr);
  const env = r.json();
  assert.equal(env.meta, { contract: 'bbdc.machine', command: 'repo create', dryRun: true });
  assert.equal(env.data.predictedAction, 'create');
  assert.equal(env.data.target, { type: 'repository', id: 'PROJ/new-svc', host: fake.url });
  assert.equal(env.data.action.method, 'POST');
  assert.equal(env.data.blockingReasons, []);
  assert.equal(writes(n), []);
  assert.not.ok(fake.state.repos.some((x) => x.slug === 'new-svc'));
  const human = await w.run(['repo', 'create', 'new-svc', '--project', 'PROJ', '--dry-run']);
  assert.match(human.stdout, 'Dry run: would create repository PROJ/new-svc');
  assert.match(human.stdout, 'No changes were made.');
  w.dispose();
});

test('an existing repository or a missing project is a conflict with blocking reasons', async () => {
  const w = world();
  const exists = (await w.run(['repo', 'create', 'api', '--project', 'PROJ', '--dry-run', '--json'])).json()
    .data;
  assert.is(exists.predictedAction, 'conflict');
  assert.equal(exists.blockingReasons, ['repository PROJ/api already exists']);
  const missing = (await w.run(['repo', 'create', 'x', '--project', 'NOPE', '--dry-run', '--json'])).json()
    .data;
  assert.equal(missing.blockingReasons, ['project NOPE does not exist']);
  assert.match(missing.summary, 'would not create repository NOPE/x');
  w.dispose();
});

test('authentication and permission failures surface before planning (exit 3)', async () => {
  const bad = world('not-a-real-token');
  const r = await bad.run(['repo', 'create', 'x', '--project', 'PROJ', '--dry-run', '--json']);
  assert.equal([r.code, r.json().error.kind], [3, 'auth']);
  bad.dispose();
  const reader = world(credentials.bob.token);
  const p = await reader.run(['repo', 'create', 'x', '--project', 'PROJ', '--dry-run', '--json']);
  assert.equal([p.code, p.json().error.kind], [3, 'auth']);
  assert.match(p.json().error.message, 'bob lacks PROJECT_ADMIN on PROJ');
  reader.dispose();
});

test('local mutations plan too: login, alias add and server use leave the config untouched', async () => {
  const w = createWorld({ keyring: memoryKeyring() });
  await w.run(['auth', 'login', fake.url, '--token', credentials.alice.token]);
  const before = readFileSync(join(w.configDir, 'config.yaml'), 'utf8');
  const login = (
    await w.run(['auth', 'login', fake.url, '--token', credentials.bob.token, '--dry-run', '--json'])
  ).json().data;
  assert.is(login.predictedAction, 'update');
  const add = (await w.run(['auth', 'alias', 'add', 'new.example.test', '--dry-run', '--json'])).json().data;
  assert.is(add.predictedAction, 'update');
  const same = (await w.run(['auth', 'alias', 'add', 'git.example.test:7999', '--dry-run', '--json'])).json()
    .data;
  assert.is(same.predictedAction, 'no-op');
  const use = (await w.run(['auth', 'server', 'use', 'elsewhere.example.test', '--dry-run', '--json'])).json()
    .data;
  assert.equal([use.predictedAction, use.blockingReasons.length], ['conflict', 1]);
  const logout = (await w.run(['auth', 'logout', '--dry-run', '--json'])).json().data;
  assert.is(logout.predictedAction, 'delete');
  assert.is(readFileSync(join(w.configDir, 'config.yaml'), 'utf8'), before);
  const rejected = await w.run(['auth', 'login', fake.url, '--token', 'bad-token-1', '--dry-run']);
  assert.is(rejected.code, 3, 'credentials are checked before planning');
  w.dispose();
});

test('a mutating command without plan support refuses --dry-run with not_implemented (exit 11) and does not run', async () => {
  let ran = false;
  const unplanned = defineCommand<Record<string, never>, { ok: boolean }>({
    name: 'thing delete',
    summary: 'Delete a thing',
    args: [],
    flags: {},
    outputSchema: 'none',
    effect: 'mutating',
    parse: () => ({}),
    run: async () => {
      ran = true;
      return { ok: true };
    },
    human: () => {},
  });
  const w = createWorld();
  const registry = [{ name: 'thing delete', load: async () => unplanned as never }];
  const r = await w.run(['thing', 'delete', '--dry-run', '--json'], { registry });
  assert.equal([r.code, r.json().error.kind, ran], [11, 'not_implemented', false]);
  const human = await w.run(['thing', 'delete'], { registry });
  assert.equal([human.code, ran], [0, true]);
  w.dispose();
});

test.run();
