import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { withFake } from './helpers/fake.ts';
import { assertSchema, fakePr, prWorld } from './helpers/pr.ts';

const test = suite('bbdc pr status');
let fake: Awaited<ReturnType<typeof withFake>>;
test.before(async () => {
  fake = await withFake();
  // alice reviews bob's #1 (not yet approved); bob already approved alice's #2.
  fakePr(fake, 1).participants.push({ name: 'alice', role: 'REVIEWER', status: 'UNAPPROVED' });
});
test.after(async () => {
  await fake.stop();
});
const run = async (argv: string[], user: 'alice' | 'bob' = 'alice', tty = false) => {
  const w = prWorld(fake, user, { tty });
  try {
    return await w.run(argv);
  } finally {
    w.dispose();
  }
};

test('one screen: my open pull requests, those waiting for my review, approvals and builds', async () => {
  const n = fake.requests.length;
  const r = await run(['pr', 'status', '--no-color'], 'alice', true);
  assert.is(r.code, 0, r.stderr);
  assert.is(
    r.stdout,
    [
      'Your pull requests',
      '  #2 Search API [PROJ/api feature/search → main]',
      '    1/1 approved · no builds',
      '',
      'Waiting for your review',
      '  #1 Add login page [PROJ/api feature/login → main]',
      '    0/1 approved · 1 running',
      '',
    ].join('\n'),
  );
  // Two dashboard listings and one POST for the build counts of all listed pull requests.
  assert.equal(
    fake.requests.slice(n).map((q) => q.operationId),
    ['getPullRequests_1', 'getPullRequests_1', 'getMultipleBuildStatusStats'],
  );
  const d = (await run(['pr', 'status', '--json'])).json().data;
  assertSchema('pr-status', d);
  assert.is(d.user, 'alice');
  assert.equal(d.reviewing[0].builds, { successful: 1, failed: 0, inProgress: 1 });
  assert.is(d.reviewing[0].myStatus, 'UNAPPROVED');
});

test('an approved review leaves the waiting list; bob sees only his open pull request', async () => {
  const d = (await run(['pr', 'status', '--json'], 'bob')).json().data;
  assert.equal(
    d.authored.map((p: { id: number }) => p.id),
    [1],
  );
  assert.equal(d.reviewing, []);
  const bad = await run(['pr', 'status', '--limit', 'x']);
  assert.is(bad.code, 2);
});

test.run();
