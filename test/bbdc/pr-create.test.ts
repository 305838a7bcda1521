import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { withFake } from './helpers/fake.ts';
import { assertPlan, assertSchema, fakePr, prWorld, snapshot, writesSince } from './helpers/pr.ts';
import { git, repoWithRemotes } from './helpers/world.ts';

const test = suite('bbdc pr create');
let fake: Awaited<ReturnType<typeof withFake>>;
test.before.each(async () => {
  fake = await withFake();
});
test.after.each(async () => {
  await fake.stop();
});

function cloneOn(dir: string, branch: string): string {
  const path = repoWithRemotes(dir, 'clone', {});
  git(path, 'checkout', '-q', '-b', branch);
  return path;
}

test('creates from the current branch into the default branch, with reviewers, as JSON and for people', async () => {
  const w = prWorld(fake);
  const cwd = cloneOn(w.dir, 'feature/new');
  const r = await w.run(
    [
      'pr',
      'create',
      '--title',
      'New thing',
      '--description',
      'Why: because.',
      '--reviewers',
      'bob',
      '--json',
    ],
    { cwd },
  );
  assert.is(r.code, 0, r.stdout + r.stderr);
  const pr = r.json().data;
  assertSchema('pr', pr);
  assert.equal(
    [pr.id, pr.title, pr.description, pr.from.branch, pr.to.branch, pr.author.name, pr.draft],
    [4, 'New thing', 'Why: because.', 'feature/new', 'main', 'alice', false],
  );
  assert.equal(pr.reviewers, [
    { name: 'bob', displayName: 'Bob Reader', role: 'REVIEWER', status: 'UNAPPROVED' },
  ]);
  assert.ok(
    fake.requests.some((q) => q.operationId === 'getDefaultBranch_2'),
    'the target came from the server',
  );
  const again = await w.run(['pr', 'create', '--title', 'Same', '--from', 'feature/login'], { cwd });
  assert.is(again.code, 5, 'a second open pull request for the same branches is a conflict');
  assert.match(again.stderr, 'Only one pull request may be open');
  w.dispose();
});

test('the human form names the new pull request; --draft makes a draft', async () => {
  const w = prWorld(fake);
  const r = await w.run([
    'pr',
    'create',
    '-t',
    'Draft work',
    '--from',
    'feature/new',
    '--to',
    'feature/search',
    '--draft',
  ]);
  assert.is(r.code, 0, r.stderr);
  assert.match(r.stdout, 'Created draft pull request #4: Draft work (feature/new → feature/search)\nhttp');
  assert.is(fakePr(fake, 4).draft, true);
  w.dispose();
});

test('the description comes from stdin when piped, or from the editor on a terminal', async () => {
  const piped = prWorld(fake, 'alice', { stdin: 'From a pipe.\n' });
  const a = await piped.run(['pr', 'create', '-t', 'Piped', '--from', 'feature/new', '--json']);
  assert.is(a.json().data.description, 'From a pipe.');
  piped.dispose();
  const seen: string[] = [];
  const edited = prWorld(fake, 'alice', {
    tty: true,
    stdinTTY: true,
    editor: (initial) => {
      seen.push(initial);
      return 'Written in the editor.\n';
    },
  });
  const b = await edited.run([
    'pr',
    'create',
    '-t',
    'Edited',
    '--from',
    'feature/new',
    '--to',
    'feature/search',
  ]);
  assert.is(b.code, 0, b.stderr);
  assert.is(fakePr(fake, 5).description, 'Written in the editor.');
  assert.equal(seen, ['']);
  edited.dispose();
});

test('an unknown reviewer fails before anything is created, naming every unknown user', async () => {
  const w = prWorld(fake);
  const before = snapshot(fake);
  const n = fake.requests.length;
  const r = await w.run([
    'pr',
    'create',
    '-t',
    'X',
    '--from',
    'feature/new',
    '--reviewers',
    'bob, ghost,nobody',
    '--json',
  ]);
  assert.is(r.code, 2);
  assert.is(r.json().error.kind, 'validation');
  assert.match(r.json().error.message, '--reviewers: no such user "ghost", "nobody"; nothing was changed');
  assert.equal(writesSince(fake, n), []);
  assert.is(snapshot(fake), before);
  w.dispose();
});

test('without a title off a terminal, or off a branch without --from, it is a usage error and sends nothing', async () => {
  const w = prWorld(fake);
  const n = fake.requests.length;
  const r = await w.run(['pr', 'create', '--from', 'feature/new']);
  assert.is(r.code, 2);
  assert.match(r.stderr, '--title is required');
  assert.is(fake.requests.length, n);
  const detached = await w.run(['pr', 'create', '-t', 'X']);
  assert.is(detached.code, 2);
  assert.match(detached.stderr, '--from BRANCH is needed');
  w.dispose();
});

test('--dry-run plans the create from read-only calls and changes nothing; problems are blocking reasons', async () => {
  const w = prWorld(fake);
  const before = snapshot(fake);
  const n = fake.requests.length;
  const r = await w.run([
    'pr',
    'create',
    '-t',
    'Planned',
    '--from',
    'feature/new',
    '-r',
    'bob',
    '--dry-run',
    '--json',
  ]);
  assert.is(r.code, 0, r.stdout);
  const plan = r.json().data;
  assertPlan(plan);
  assert.equal(
    [plan.predictedAction, plan.action.method, plan.action.path],
    ['create', 'POST', '/rest/api/latest/projects/PROJ/repos/api/pull-requests'],
  );
  assert.equal(plan.action.body.reviewers, [{ user: { name: 'bob' } }]);
  const blocked = await w.run([
    'pr',
    'create',
    '-t',
    'P',
    '--from',
    'feature/login',
    '-r',
    'ghost,alice',
    '--dry-run',
    '--json',
  ]);
  assert.equal(blocked.json().data.blockingReasons, [
    '--reviewers: no such user "ghost"',
    'pull request #1 from feature/login into main is already open',
    'alice is the author and cannot review it',
  ]);
  const human = await w.run(['pr', 'create', '-t', 'Planned', '--from', 'feature/new', '--dry-run']);
  assert.match(human.stdout, 'Dry run: would create pull request "Planned" from feature/new into main');
  assert.equal(writesSince(fake, n), []);
  assert.is(snapshot(fake), before);
  w.dispose();
});

test.run();
