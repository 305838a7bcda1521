import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { logoBytes } from '../fake-bitbucket/content-state.ts';
import { sha } from '../fake-bitbucket/core-state.ts';
import { credentials } from '../fake-bitbucket/state.ts';
import { withFake } from './helpers/fake.ts';
import { assertSchema } from './helpers/pr.ts';
import { createWorld } from './helpers/world.ts';

const test = suite('bbdc repo cat / browse');
let fake: Awaited<ReturnType<typeof withFake>>;
test.before(async () => {
  fake = await withFake();
});
test.after(async () => {
  await fake.stop();
});
// OPS/tools (id 13): c1 README; c2 src/main.ts + assets/logo.png; c3 docs/guide.md on feature/docs; c4 merges it.
const c = (n: number) => sha(`13:${n}`);
const run = async (argv: string[], tty = false, token = credentials.alice.token) => {
  const w = createWorld({ tty, env: { BBDC_URL: fake.url, BBDC_TOKEN: token } });
  try {
    return await w.run([...argv, '-R', 'OPS/tools']);
  } finally {
    w.dispose();
  }
};

test('repo cat and repo browse raw: the exact bytes of a binary file; text in --json, base64 for binary', async () => {
  for (const name of [
    ['repo', 'cat'],
    ['repo', 'browse', 'raw'],
  ]) {
    const r = await run([...name, 'assets/logo.png']);
    assert.is(r.code, 0, r.stderr);
    assert.ok(r.bytes.equals(logoBytes), `${name.join(' ')}: byte for byte`);
  }
  const bin = (await run(['repo', 'cat', 'assets/logo.png', '--json'])).json().data;
  assertSchema('repo-file', bin);
  assert.equal([bin.encoding, bin.size], ['base64', logoBytes.length]);
  assert.ok(Buffer.from(bin.content, 'base64').equals(logoBytes));
  const text = await run(['repo', 'cat', 'README.md']);
  assert.is(text.stdout, '# tools\n\nThe tools repository.\n');
  const json = (await run(['repo', 'cat', '/README.md', '--json'])).json().data;
  assert.equal(
    [json.encoding, json.content, json.path],
    ['utf-8', '# tools\n\nThe tools repository.\n', 'README.md'],
  );
  const raw = fake.requests.filter((q) => q.operationId === 'streamRaw').at(-1)!;
  assert.is(raw.path, '/rest/api/latest/projects/OPS/repos/tools/raw/README.md');
});

test('repo cat --ref reads another branch or commit; a missing path or ref is not found (exit 4)', async () => {
  const guide = await run(['repo', 'cat', 'docs/guide.md', '--ref', 'feature/docs']);
  assert.is(guide.stdout, '# Guide\n\nRead the code.\n');
  const merged = await run(['repo', 'cat', 'docs/guide.md']);
  assert.is(merged.stdout, '# Guide\n\nRead the code.\nThen run it.\n');
  const old = await run(['repo', 'cat', 'docs/guide.md', '--ref', c(2), '--json']);
  assert.equal([old.code, old.json().error.kind], [4, 'not_found']);
  const q = fake.requests.filter((x) => x.operationId === 'streamRaw').at(-1)!;
  assert.is(q.query.get('at'), c(2));
  const dots = await run(['repo', 'cat', 'src/../README.md']);
  assert.equal([dots.code, dots.stderr.includes('path cannot be ".."')], [2, true]);
  const none = await run(['repo', 'cat']);
  assert.is(none.code, 2);
});

test('repo browse tree: directories first, sizes, a subdirectory, --limit caps the total', async () => {
  const human = await run(['repo', 'browse', 'tree']);
  assert.is(
    human.stdout,
    'directory\t\tassets/\ndirectory\t\tdocs/\ndirectory\t\tsrc/\nfile\t31\tREADME.md\n',
  );
  const d = (await run(['repo', 'browse', 'tree', 'assets', '--json'])).json().data;
  assertSchema('repo-tree', d);
  assert.equal(d.entries, [
    { name: 'logo.png', path: 'assets/logo.png', type: 'file', size: logoBytes.length },
  ]);
  const capped = (await run(['repo', 'browse', 'tree', '--limit', '2', '--json'])).json().data;
  assert.equal([capped.entries.length, capped.truncated], [2, true]);
  const old = (await run(['repo', 'browse', 'tree', '--ref', c(1), '--json'])).json().data;
  assert.equal(
    old.entries.map((e: { path: string }) => e.path),
    ['README.md'],
  );
  assert.is((await run(['repo', 'browse', 'tree', 'nope'])).code, 4);
});

test('repo browse file: numbered lines on a terminal, plain when piped; a binary file points to repo cat', async () => {
  const tty = await run(['repo', 'browse', 'file', 'src/main.ts', '--no-color'], true);
  assert.is(tty.stdout, "1  export function main() {\n2    return 'hello';\n3  }\n");
  const piped = await run(['repo', 'browse', 'file', 'src/main.ts']);
  assert.is(piped.stdout, "export function main() {\n  return 'hello';\n}\n");
  const d = (await run(['repo', 'browse', 'file', 'src/main.ts', '--limit', '2', '--json'])).json().data;
  assertSchema('repo-file-lines', d);
  assert.equal([d.lines, d.truncated], [['export function main() {', "  return 'hello';"], true]);
  const bin = await run(['repo', 'browse', 'file', 'assets/logo.png']);
  assert.equal([bin.code, bin.stderr.includes('bbdc repo cat assets/logo.png')], [2, true]);
});

test('repo browse blame: each line with the commit that last changed it', async () => {
  const d = (await run(['repo', 'browse', 'blame', 'docs/guide.md', '--json'])).json().data;
  assertSchema('repo-blame', d);
  assert.equal(
    d.lines.map((l: { commit: string; author: string; text: string }) => [l.commit, l.author, l.text]),
    [
      [c(3), 'bob', '# Guide'],
      [c(3), 'bob', ''],
      [c(3), 'bob', 'Read the code.'],
      [c(4), 'alice', 'Then run it.'],
    ],
  );
  const human = await run(['repo', 'browse', 'blame', 'docs/guide.md']);
  assert.match(human.stdout.split('\n')[3], `${c(4).slice(0, 11)} alice 2023-11-14 4) Then run it.`);
  const q = fake.requests.filter((x) => x.operationId === 'getContent_1').at(-1)!;
  assert.equal([q.query.get('blame'), q.query.get('noContent')], ['true', 'true']);
});

test('repo browse history: commits that touched a path, from a ref, capped by --limit', async () => {
  const d = (await run(['repo', 'browse', 'history', 'docs/guide.md', '--json'])).json().data;
  assertSchema('commit-list', d);
  assert.equal(
    d.commits.map((x: { id: string }) => x.id),
    [c(4), c(3)],
  );
  const ref = (await run(['repo', 'browse', 'history', 'docs', '--ref', 'feature/docs', '--json'])).json()
    .data;
  assert.equal(
    ref.commits.map((x: { id: string }) => x.id),
    [c(3)],
  );
  const capped = (await run(['repo', 'browse', 'history', 'docs', '--limit', '1', '--json'])).json().data;
  assert.equal([capped.count, capped.truncated], [1, true]);
});

test.run();
