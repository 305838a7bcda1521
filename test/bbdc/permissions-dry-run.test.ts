// The fake enforces what Bitbucket enforces (a write without its permission is refused before the handler runs),
// and a dry-run asks the same question first: a plan the server would refuse says so, exits 3 and names the
// permission, instead of "would enable auto-merge".
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { withFake } from './helpers/fake.ts';
import { fakePr, prWorld, writesSince } from './helpers/pr.ts';

const test = suite('bbdc permission-aware dry-runs and a fake that enforces permissions');
let fake: Awaited<ReturnType<typeof withFake>>;
test.before.each(async () => {
  fake = await withFake();
});
test.after.each(async () => {
  await fake.stop();
});

const cases: [string[], string][] = [
  [['pr', 'auto-merge', 'enable', '2'], 'REPO_WRITE on PROJ/api, which turning on auto-merge needs'],
  [['pr', 'auto-merge', 'disable', '2'], 'REPO_WRITE on PROJ/api, which turning off auto-merge needs'],
  [['pr', 'merge', '1'], 'REPO_WRITE on PROJ/api, which merging needs'],
  [['webhook', 'delete', '1'], 'REPO_ADMIN on PROJ/api, which changing webhooks needs'],
  [['webhook', 'update', '1', '--name', 'x'], 'REPO_ADMIN on PROJ/api, which changing webhooks needs'],
  [['tag', 'delete', 'v1.0'], 'REPO_WRITE on PROJ/api, which deleting a tag needs'],
];

for (const [argv, message] of cases) {
  test(`bob (read only) --dry-run ${argv.join(' ')}: exit 3 naming the permission; the real run is refused too`, async () => {
    const w = prWorld(fake, 'bob');
    const n = fake.requests.length;
    const dry = await w.run([...argv, '--dry-run', '--json']);
    assert.is(dry.code, 3, dry.stdout);
    assert.is(dry.json().error.kind, 'auth');
    assert.match(dry.json().error.message, `bob lacks ${message}: the server would refuse it`);
    assert.equal(writesSince(fake, n), []);
    const real = await w.run(argv);
    assert.is(real.code, 3, real.stderr);
    assert.match(real.stderr, new RegExp(`${message.split(' ')[0]} is (needed|required) on PROJ/api`));
    w.dispose();
  });
}

test('alice (admin) plans and runs the same change', async () => {
  const w = prWorld(fake, 'alice');
  const dry = await w.run(['pr', 'auto-merge', 'enable', '2', '--dry-run', '--json']);
  assert.is(dry.code, 0, dry.stdout);
  assert.match(dry.json().data.summary, 'would turn on auto-merge');
  const real = await w.run(['pr', 'auto-merge', 'enable', '2']);
  assert.is(real.code, 0, real.stderr);
  assert.ok(fakePr(fake, 2).autoMerge);
  w.dispose();
});

test('the fake answers 401 AuthorisationException for a write without its permission, before the handler', async () => {
  const w = prWorld(fake, 'bob');
  const r = await w.run(['webhook', 'delete', '1', '--json']);
  assert.is(r.code, 3, r.stdout);
  assert.match(r.json().error.message, 'REPO_ADMIN is needed on PROJ/api');
  w.dispose();
});

test.run();
