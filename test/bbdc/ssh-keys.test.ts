import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { keysState } from '../fake-bitbucket/keys-state.ts';
import { withFake } from './helpers/fake.ts';
import { assertPlan, assertSchema, prWorld, writesSince } from './helpers/pr.ts';

const test = suite('bbdc ssh keys');
const dir = mkdtempSync(join(tmpdir(), 'bbdc-keys-'));
const pub = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHx1c2VyLWtleS1mb3ItYmJkYy10ZXN0cw alice@laptop';
const deploy = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGRlcGxveS1rZXktZm9yLWJiZGMtdGVzdHM ci@deploy';
const keyFile = join(dir, 'id_ed25519.pub');
writeFileSync(keyFile, `${pub}\n`);
let fake: Awaited<ReturnType<typeof withFake>>;
test.before(async () => {
  fake = await withFake();
});
test.after(async () => {
  await fake.stop();
  rmSync(dir, { recursive: true, force: true });
});
const run = async (argv: string[], user: 'alice' | 'bob' = 'alice') => {
  const w = prWorld(fake, user);
  try {
    return await w.run(argv);
  } finally {
    w.dispose();
  }
};

test('ssh-key add: reads the .pub file, plans the exact POST, adds once; a private key never leaves', async () => {
  const n = fake.requests.length;
  const plan = (
    await run(['ssh-key', 'add', '--key-file', keyFile, '--label', 'laptop', '--dry-run', '--json'])
  ).json().data;
  assertPlan(plan);
  assert.equal(
    [plan.predictedAction, plan.action.method, plan.action.path, plan.action.body],
    ['create', 'POST', '/rest/ssh/latest/keys', { text: pub, label: 'laptop' }],
  );
  assert.equal(writesSince(fake, n), []);
  const added = (await run(['ssh-key', 'add', '--key-file', keyFile, '--label', 'laptop', '--json'])).json()
    .data;
  assertSchema('ssh-key', added);
  assert.equal([added.added, added.key.label, added.key.algorithm], [true, 'laptop', 'ED25519']);
  const again = (await run(['ssh-key', 'add', '--key', pub, '--json'])).json().data;
  assert.equal([again.added, again.key.id], [false, added.key.id]);
  const priv = join(dir, 'id_ed25519');
  writeFileSync(
    priv,
    '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk=\n-----END OPENSSH PRIVATE KEY-----\n',
  );
  const m = fake.requests.length;
  const refused = await run(['ssh-key', 'add', '--key-file', priv]);
  assert.equal([refused.code, refused.stderr.includes('holds a PRIVATE key')], [2, true]);
  assert.is(fake.requests.length, m, 'nothing was sent');
  const junk = await run(['ssh-key', 'add', '--key', 'hello']);
  assert.equal([junk.code, junk.stderr.includes('is not an OpenSSH public key line')], [2, true]);
});

test('ssh-key list and remove: only your own keys; remove plans the DELETE', async () => {
  const mine = (await run(['ssh-key', 'list', '--json'])).json().data;
  assertSchema('ssh-key-list', mine);
  assert.equal([mine.owner, mine.keys.length], ['alice', 1]);
  assert.equal((await run(['ssh-key', 'list', '--json'], 'bob')).json().data.keys, []);
  const id = mine.keys[0].id;
  const plan = (await run(['ssh-key', 'remove', String(id), '--dry-run', '--json'])).json().data;
  assert.equal([plan.action.method, plan.action.path], ['DELETE', `/rest/ssh/latest/keys/${id}`]);
  const other = await run(['ssh-key', 'remove', String(id)], 'bob');
  assert.is(other.code, 4);
  const done = (await run(['ssh-key', 'remove', String(id), '--json'])).json().data;
  assertSchema('key-removal', done);
  assert.equal(keysState(fake.state).ssh, []);
});

test('repo and project ssh-key: access keys with read or write; admins only', async () => {
  const plan = (
    await run(['repo', 'ssh-key', 'add', '--key', deploy, '--permission', 'write', '--dry-run', '--json'])
  ).json().data;
  assert.equal(
    [plan.action.path, plan.action.body],
    ['/rest/keys/latest/projects/PROJ/repos/api/ssh', { key: { text: deploy }, permission: 'REPO_WRITE' }],
  );
  const added = (
    await run(['repo', 'ssh-key', 'add', '--key', deploy, '--permission', 'write', '--json'])
  ).json().data;
  assertSchema('ssh-key', added);
  assert.is(added.key.permission, 'REPO_WRITE');
  const list = await run(['repo', 'ssh-key', 'list']);
  assert.match(list.stdout, new RegExp(`^${added.key.id}\\t\\tED25519\\tSHA256:\\S+\\tREPO_WRITE\\n$`));
  const denied = await run(['repo', 'ssh-key', 'list', '--json'], 'bob');
  assert.equal([denied.code, denied.json().error.kind], [3, 'auth']);
  const proj = (await run(['project', 'ssh-key', 'add', 'proj', '--key', deploy, '--json'])).json().data;
  assert.is(proj.key.permission, 'PROJECT_READ');
  const pl = (await run(['project', 'ssh-key', 'list', 'PROJ', '--json'])).json().data;
  assert.equal([pl.owner, pl.keys.length], ['PROJ', 1]);
  const removed = (await run(['project', 'ssh-key', 'remove', 'PROJ', String(proj.key.id), '--json'])).json()
    .data;
  assert.equal([removed.scope, removed.removed], ['PROJ', true]);
  await run(['repo', 'ssh-key', 'remove', String(added.key.id)]);
  assert.equal(keysState(fake.state).ssh, []);
  assert.is((await run(['repo', 'ssh-key', 'remove', '999'])).code, 4);
});

test.run();
