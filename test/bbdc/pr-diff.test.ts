import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { withFake } from './helpers/fake.ts';
import { assertSchema, fakePr, prWorld } from './helpers/pr.ts';

const test = suite('bbdc pr diff, commits, files');
let fake: Awaited<ReturnType<typeof withFake>>;
test.before.each(async () => {
  fake = await withFake();
});
test.after.each(async () => {
  await fake.stop();
});

test('pr diff prints a unified diff file by file, and its JSON carries each patch', async () => {
  const w = prWorld(fake);
  const r = await w.run(['pr', 'diff', '1']);
  assert.is(r.code, 0, r.stderr);
  assert.is(
    r.stdout,
    [
      'diff --git a/src/login.ts b/src/login.ts',
      '--- /dev/null',
      '+++ b/src/login.ts',
      '@@ -1,0 +1,3 @@',
      '+export function login(user: string, password: string) {',
      '+  return check(user, password);',
      '+}',
      'diff --git a/README.md b/README.md',
      '--- a/README.md',
      '+++ b/README.md',
      '@@ -1,1 +1,2 @@',
      ' # api',
      '+See the login page.',
      '',
    ].join('\n'),
  );
  const json = await w.run(['pr', 'diff', '1', '--json']);
  const d = json.json().data;
  assertSchema('pr-diff', d);
  assert.equal(
    [d.additions, d.deletions, d.files.map((f: any) => [f.path, f.type, f.additions, f.skipped])],
    [
      4,
      0,
      [
        ['src/login.ts', 'ADD', 3, false],
        ['README.md', 'MODIFY', 1, false],
      ],
    ],
  );
  w.dispose();
});

test('pr diff --stat prints a diffstat; --path narrows to one file', async () => {
  const w = prWorld(fake);
  const r = await w.run(['pr', 'diff', '1', '--stat']);
  assert.is(
    r.stdout,
    ' src/login.ts | 3 +++\n README.md    | 1 +\n 2 files changed, 4 insertions(+), 0 deletions(-)\n',
  );
  const json = (await w.run(['pr', 'diff', '1', '--stat', '--json'])).json().data;
  assertSchema('pr-diff', json);
  assert.equal(
    json.files.map((f: any) => f.patch),
    [undefined, undefined],
  );
  const one = (await w.run(['pr', 'diff', '1', '--path', 'README.md', '--json'])).json().data;
  assert.equal(
    one.files.map((f: any) => f.path),
    ['README.md'],
  );
  w.dispose();
});

test('a file over --max-lines is skipped with its size, the others still print', async () => {
  const huge = Array.from({ length: 40 }, (_, i) => `line ${i}`);
  fakePr(fake, 1).files.push({
    path: 'data/big.csv',
    type: 'ADD',
    hunks: [
      {
        sourceLine: 0,
        sourceSpan: 0,
        destinationLine: 1,
        destinationSpan: 40,
        segments: [{ type: 'ADDED', lines: huge }],
      },
    ],
  });
  const w = prWorld(fake);
  const r = await w.run(['pr', 'diff', '1', '--max-lines', '10']);
  assert.match(r.stdout, '+See the login page.');
  assert.match(
    r.stdout,
    'diff --git a/data/big.csv b/data/big.csv\n(not shown: 41 diff lines is over --max-lines; run bbdc pr diff 1 --path data/big.csv --max-lines 0)',
  );
  assert.not.match(r.stdout, 'line 39');
  const json = (await w.run(['pr', 'diff', '1', '--max-lines', '10', '--json'])).json().data;
  const big = json.files.find((f: any) => f.path === 'data/big.csv');
  assert.equal([big.skipped, big.lines, big.additions, big.patch], [true, 41, 40, undefined]);
  const all = await w.run(['pr', 'diff', '1', '--path', 'data/big.csv', '--max-lines', '0']);
  assert.match(all.stdout, '+line 39');
  const bad = await w.run(['pr', 'diff', '1', '--max-lines', 'lots']);
  assert.is(bad.code, 2);
  assert.match(bad.stderr, '--max-lines "lots" must be a whole number (0 or more)');
  w.dispose();
});

test('pr commits lists the commits newest first, with --limit', async () => {
  const w = prWorld(fake);
  const r = await w.run(['pr', 'commits', '1', '--json']);
  assertSchema('pr-commits', r.json().data);
  assert.equal(
    r.json().data.commits.map((c: any) => [c.displayId, c.author, c.message]),
    [
      ['02020202020', 'bob', 'Validate the password'],
      ['03030303030', 'bob', 'Add the login form'],
    ],
  );
  const human = await w.run(['pr', 'commits', '1', '--limit', '1']);
  assert.is(human.stdout, '02020202020\tbob\t2023-11-14 22:13\tValidate the password\n');
  assert.match(human.stderr, 'Showing the first 1; raise --limit for more.');
  w.dispose();
});

test('pr files lists what changed and how; a missing pull request is not found', async () => {
  fakePr(fake, 1).files.push({
    path: 'src/auth/login.ts',
    srcPath: 'src/login-old.ts',
    type: 'MOVE',
    hunks: [],
  });
  const w = prWorld(fake);
  const r = await w.run(['pr', 'files', '1', '--json']);
  assertSchema('pr-files', r.json().data);
  assert.equal(r.json().data.files[2], {
    path: 'src/auth/login.ts',
    srcPath: 'src/login-old.ts',
    type: 'MOVE',
  });
  const human = await w.run(['pr', 'files', '1']);
  assert.is(
    human.stdout,
    'added\tsrc/login.ts\nmodified\tREADME.md\nmoved\tsrc/login-old.ts → src/auth/login.ts\n',
  );
  assert.is((await w.run(['pr', 'files', '99'])).code, 4);
  w.dispose();
});

test.run();
