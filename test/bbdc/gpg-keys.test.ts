import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { keysState } from '../fake-bitbucket/keys-state.ts';
import { withFake } from './helpers/fake.ts';
import { assertPlan, assertSchema, prWorld, writesSince } from './helpers/pr.ts';

const test = suite('bbdc auth gpg-key');
let fake: Awaited<ReturnType<typeof withFake>>;
test.before(async () => {
  fake = await withFake();
});
test.after(async () => {
  await fake.stop();
});
const block = (n: number) =>
  `-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nmQINBGbbdc${n}AAAA\n-----END PGP PUBLIC KEY BLOCK-----`;
const run = async (argv: string[], stdin?: string, user: 'alice' | 'bob' = 'alice') => {
  const w = prWorld(fake, user, { stdin });
  try {
    return await w.run(argv);
  } finally {
    w.dispose();
  }
};

test('add from stdin: planned as the exact POST, then listed; a private block is refused before sending', async () => {
  const n = fake.requests.length;
  const plan = (
    await run(['auth', 'gpg-key', 'add', '--key-file', '-', '--dry-run', '--json'], block(1))
  ).json().data;
  assertPlan(plan);
  assert.equal(
    [plan.action.method, plan.action.path, plan.action.body],
    ['POST', '/rest/gpg/latest/keys', { text: `${block(1)}\n` }],
  );
  assert.equal(writesSince(fake, n), []);
  const added = (await run(['auth', 'gpg-key', 'add', '--key-file', '-', '--json'], block(1))).json().data;
  assertSchema('gpg-key', added);
  await run(['auth', 'gpg-key', 'add', '--key-file', '-'], block(2));
  const list = (await run(['auth', 'gpg-key', 'list', '--json'])).json().data;
  assertSchema('gpg-key-list', list);
  assert.equal(
    list.keys.map((k: { email: string }) => k.email),
    ['alice@example.test', 'alice@example.test'],
  );
  const m = fake.requests.length;
  const priv = await run(
    ['auth', 'gpg-key', 'add', '--key-file', '-'],
    '-----BEGIN PGP PRIVATE KEY BLOCK-----\nx\n-----END PGP PRIVATE KEY BLOCK-----',
  );
  assert.equal([priv.code, priv.stderr.includes('holds a PRIVATE key'), fake.requests.length], [2, true, m]);
});

test('remove by id or fingerprint; clear removes the rest after --yes', async () => {
  const [first] = keysState(fake.state).gpg;
  const r = (await run(['auth', 'gpg-key', 'remove', first.id, '--json'])).json().data;
  assertSchema('key-removal', r);
  assert.is(keysState(fake.state).gpg.length, 1);
  assert.is((await run(['auth', 'gpg-key', 'remove', 'NOPE'])).code, 4);
  const plan = (await run(['auth', 'gpg-key', 'clear', '--dry-run', '--json'])).json().data;
  assert.equal([plan.action.method, plan.action.path], ['DELETE', '/rest/gpg/latest/keys?user=alice']);
  const refused = await run(['auth', 'gpg-key', 'clear']);
  assert.equal([refused.code, refused.stderr.includes('without --yes')], [2, true]);
  const done = (await run(['auth', 'gpg-key', 'clear', '--yes', '--json'])).json().data;
  assert.equal([done.removed, keysState(fake.state).gpg], [true, []]);
  const empty = (await run(['auth', 'gpg-key', 'clear', '--json'])).json().data;
  assert.is(empty.removed, false);
});

test.run();
