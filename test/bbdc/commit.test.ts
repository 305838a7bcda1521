import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { sha } from '../fake-bitbucket/core-state.ts';
import { credentials } from '../fake-bitbucket/state.ts';
import { withFake } from './helpers/fake.ts';
import { createWorld } from './helpers/world.ts';

const test = suite('bbdc commit');
let fake: Awaited<ReturnType<typeof withFake>>;
test.before(async () => {
  fake = await withFake();
});
test.after(async () => {
  await fake.stop();
});
// OPS/tools (id 13): c1 README; c2 src/main.ts; c3 docs/guide.md on feature/docs; c4 merges it into master.
const c = (n: number) => sha(`13:${n}`);
const run = async (argv: string[], tty = false) => {
  const w = createWorld({ tty, env: { BBDC_URL: fake.url, BBDC_TOKEN: credentials.alice.token } });
  try {
    return await w.run([...argv, '-R', 'OPS/tools']);
  } finally {
    w.dispose();
  }
};
const ids = (r: { json(): { data: { commits: { id: string }[] } } }) =>
  r.json().data.commits.map((x) => x.id);

test('commit list: newest first as a table on a terminal and in --json with ISO dates', async () => {
  const human = await run(['commit', 'list', '--no-color'], true);
  const lines = human.stdout.trimEnd().split('\n');
  assert.match(lines[0], /^COMMIT +AUTHOR +DATE +SUBJECT$/);
  assert.match(
    lines[1],
    new RegExp(`^${c(4).slice(0, 11)} +alice +2023-11-14 +Merge branch 'feature/docs'$`),
  );
  assert.is(lines.length, 5);
  const json = (await run(['commit', 'list', '--json'])).json().data;
  assert.equal(
    json.commits.map((x: { id: string }) => x.id),
    [c(4), c(3), c(2), c(1)],
  );
  assert.equal(json.commits[0].parents, [c(2), c(3)]);
  assert.equal(json.commits[1].author, { name: 'bob', email: 'bob@example.test', displayName: 'Bob Reader' });
  assert.is(json.commits[3].authoredAt, '2023-11-14T22:13:20.000Z');
});

test('commit list: --path, --since/--until refs, --merges and --limit go to the server', async () => {
  assert.equal(ids(await run(['commit', 'list', '--path', 'docs', '--json'])), [c(4), c(3)]);
  assert.equal(ids(await run(['commit', 'list', '--until', 'feature/docs', '--json'])), [c(3), c(1)]);
  assert.equal(ids(await run(['commit', 'list', '--since', c(2), '--json'])), [c(4), c(3)]);
  assert.equal(ids(await run(['commit', 'list', '--merges', 'only', '--json'])), [c(4)]);
  assert.equal(ids(await run(['commit', 'list', '--merges', 'exclude', '--json'])), [c(3), c(2), c(1)]);
  const n = fake.requests.length;
  const capped = (await run(['commit', 'list', '--limit', '2', '--start', '1', '--json'])).json().data;
  assert.equal([capped.count, capped.truncated], [2, true]);
  assert.equal([fake.requests[n].query.get('start'), fake.requests[n].query.get('limit')], ['1', '2']);
  const bad = await run(['commit', 'list', '--merges', 'sometimes']);
  assert.equal(
    [bad.code, bad.stderr.includes('--merges "sometimes" must be one of include, exclude, only')],
    [2, true],
  );
  const missing = await run(['commit', 'list', '--until', 'nope', '--json']);
  assert.is(missing.code, 4);
});

test('commit get: git-log style for people, the full record in --json', async () => {
  const human = await run(['commit', 'get', c(4).slice(0, 8)]);
  assert.match(
    human.stdout,
    `commit ${c(4)}\nMerge:  ${c(2).slice(0, 11)} ${c(3).slice(0, 11)}\nAuthor: alice <alice@example.test>`,
  );
  assert.match(human.stdout, "\n    Merge branch 'feature/docs'\n");
  const json = (await run(['commit', 'get', c(2), '--json'])).json().data;
  assert.equal(
    [json.id, json.displayId, json.message, json.parents],
    [c(2), c(2).slice(0, 11), 'Add main', [c(1)]],
  );
  const missing = await run(['commit', 'get', 'deadbeef', '--json']);
  assert.equal([missing.code, missing.json().error.kind], [4, 'not_found']);
});

test('commit compare: commits on FROM that TO lacks, both ways', async () => {
  const json = (await run(['commit', 'compare', 'master', 'feature/docs', '--json'])).json().data;
  assert.equal([json.from, json.to, json.count], ['master', 'feature/docs', 2]);
  assert.equal(
    json.commits.map((x: { id: string }) => x.id),
    [c(4), c(2)],
  );
  const human = await run(['commit', 'compare', 'feature/docs', 'master']);
  assert.is(human.stdout, '');
  assert.match(human.stderr, 'master already has every commit of feature/docs.');
  const piped = await run(['commit', 'compare', 'feature/docs', c(1)]);
  assert.is(piped.stdout, `${c(3).slice(0, 11)}\tbob\t2023-11-14\tWrite the guide\n`);
});

test.run();
