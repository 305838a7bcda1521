import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { diffStat, statLines } from '../../src/bbdc/api/diff-stat.ts';
import { sha } from '../fake-bitbucket/core-state.ts';
import { credentials } from '../fake-bitbucket/state.ts';
import { withFake } from './helpers/fake.ts';
import { assertSchema } from './helpers/pr.ts';
import { createWorld } from './helpers/world.ts';

const test = suite('bbdc ref / diff');
let fake: Awaited<ReturnType<typeof withFake>>;
test.before(async () => {
  fake = await withFake();
});
test.after(async () => {
  await fake.stop();
});
// OPS/tools: c1 README; c2 src/main.ts + assets/logo.png; c3 docs/guide.md on feature/docs; c4 merges it.
const c = (n: number) => sha(`13:${n}`);
const run = async (argv: string[], tty = false) => {
  const w = createWorld({ tty, env: { BBDC_URL: fake.url, BBDC_TOKEN: credentials.alice.token } });
  try {
    return await w.run([...argv, '-R', 'OPS/tools']);
  } finally {
    w.dispose();
  }
};

test('ref list: branches and tags together, filtered, --type, --limit as a total', async () => {
  const all = (await run(['ref', 'list', '--json'])).json().data;
  assertSchema('ref-list', all);
  assert.equal(
    all.refs.map((r: { type: string; name: string }) => `${r.type} ${r.name}`),
    ['branch feature/docs', 'branch master', 'tag v1.0'],
  );
  assert.is(all.refs[2].commit, c(2));
  const human = await run(['ref', 'list', '--filter', 'doc']);
  assert.is(human.stdout, `branch\tfeature/docs\t${c(3).slice(0, 11)}\n`);
  assert.equal((await run(['ref', 'list', '--type', 'tag', '--json'])).json().data.refs.length, 1);
  const capped = (await run(['ref', 'list', '--limit', '2', '--json'])).json().data;
  assert.equal([capped.refs.length, capped.truncated], [2, true]);
});

test('ref resolve: branch, tag and short id to the full commit; unknown is exit 4', async () => {
  assert.is((await run(['ref', 'resolve', 'master'])).stdout, `${c(4)}\n`);
  const tag = (await run(['ref', 'resolve', 'v1.0', '--json'])).json().data;
  assertSchema('ref-resolve', tag);
  assert.is(tag.commit, c(2));
  assert.is((await run(['ref', 'resolve', c(3).slice(0, 8)])).stdout, `${c(3)}\n`);
  assert.is((await run(['ref', 'resolve', 'nope'])).code, 4);
});

test('diff commit: against the first parent; text, --stat and --json from one request', async () => {
  const n = fake.requests.length;
  const d = (await run(['diff', 'commit', c(4), '--json'])).json().data;
  assertSchema('diff', d);
  assert.equal(d.files, [{ path: 'docs/guide.md', type: 'ADD', added: 4, removed: 0 }]);
  assert.match(
    d.diff,
    'diff --git a/docs/guide.md b/docs/guide.md\nnew file mode 100644\n--- /dev/null\n+++ b/docs/guide.md\n@@ -0,0 +1,4 @@\n+# Guide\n',
  );
  assert.equal(
    fake.requests.slice(n).map((q) => [q.operationId, q.query.get('until'), q.query.get('since')]),
    [['streamRawDiff', c(4), null]],
  );
  const stat = await run(['diff', 'commit', c(2), '--stat']);
  assert.is(
    stat.stdout,
    ' assets/logo.png | Bin\n src/main.ts     |   3 +++\n 2 files changed, 3 insertions(+), 0 deletions(-)\n',
  );
  const colour = await run(['diff', 'commit', c(4)], true);
  assert.match(colour.stdout, '\u001b[32m+# Guide\u001b[39m');
});

test('diff refs: what <to> changes against <from>; --path keeps one file', async () => {
  const d = (await run(['diff', 'refs', 'feature/docs', 'master', '--stat', '--json'])).json().data;
  assert.equal([d.from, d.to, d.diff], ['feature/docs', 'master', undefined]);
  assert.equal(
    d.files.map((f: { path: string; type: string }) => `${f.type} ${f.path}`),
    ['ADD assets/logo.png', 'MODIFY docs/guide.md', 'ADD src/main.ts'],
  );
  const one = (
    await run(['diff', 'refs', 'feature/docs', 'master', '--path', 'docs/guide.md', '--json'])
  ).json().data;
  assert.equal(
    one.files.map((f: { path: string }) => f.path),
    ['docs/guide.md'],
  );
  assert.ok(
    one.diff.startsWith('diff --git a/docs/guide.md b/docs/guide.md') && !one.diff.includes('src/main.ts'),
  );
  assert.is((await run(['diff', 'refs', 'nope', 'master'])).code, 4);
});

test('diffStat reads renames, deletions and binaries from git diff text', () => {
  const files = diffStat(
    'diff --git a/old.txt b/new.txt\n--- a/old.txt\n+++ b/new.txt\n@@ -1 +1 @@\n-a\n+b\ndiff --git a/gone b/gone\n--- a/gone\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-x\n-y\n',
  );
  assert.equal(files, [
    { path: 'new.txt', srcPath: 'old.txt', type: 'MODIFY', added: 1, removed: 1 },
    { path: 'gone', type: 'DELETE', added: 0, removed: 2 },
  ]);
  assert.is(statLines(files).at(-1), ' 2 files changed, 1 insertion(+), 3 deletions(-)');
});

test.run();
