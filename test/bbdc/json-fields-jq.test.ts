// gh habits: `--json` with a field list, and `--jq <expr>` run by jq (jq-wasm) over the --json document.
import * as assert from 'uvu/assert';
import { fakeSuite } from './helpers/pr.ts';

const s = fakeSuite('bbdc --json FIELDS and --jq', 'suite');
const { test, run } = s;

test('--json id,title keeps only those fields of each listed item, and the list around them', async () => {
  const r = await run(['pr', 'list', '--json', 'id,title']);
  assert.is(r.code, 0, r.stderr);
  const d = r.json().data;
  assert.ok(d.pullRequests.length >= 2);
  for (const pr of d.pullRequests) assert.equal(Object.keys(pr), ['id', 'title']);
  assert.is(d.count, d.pullRequests.length);
  const eq = await run(['pr', 'list', '--json=id']);
  assert.equal(Object.keys(eq.json().data.pullRequests[0]), ['id']);
});

test('after an argument the command takes, the word after --json is the field list; before it, the argument', async () => {
  const one = await run(['pr', 'get', '1', '--json', 'title,state']);
  assert.equal(one.json().data, { title: 'Add login page', state: 'OPEN' });
  const arg = await run(['pr', 'get', '--json', '1']);
  assert.equal([arg.code, arg.json().data.id], [0, 1]);
});

test('an unknown field is a usage error naming the fields there are', async () => {
  const r = await run(['pr', 'get', '1', '--json', 'titel']);
  assert.is(r.code, 2);
  const e = r.json().error;
  assert.match(e.message, 'no field titel');
  assert.match(e.message, 'title');
});

test('--jq filters the --json document with jq, strings raw', async () => {
  const r = await run(['pr', 'list', '--jq', '.data.pullRequests[] | "\\(.id) \\(.title)"']);
  assert.is(r.code, 0, r.stderr);
  assert.is(r.stdout, '2 Search API\n1 Add login page\n');
  const both = await run(['pr', 'get', '1', '--json', 'id,title', '--jq', '.data']);
  assert.equal(JSON.parse(both.stdout), { id: 1, title: 'Add login page' });
});

test('a --jq that does not compile fails before any request, on stderr, exit 2', async () => {
  const n = s.fake.requests.length;
  const r = await run(['pr', 'get', '1', '--jq', '.data |||']);
  assert.equal([r.code, r.stdout, s.fake.requests.length - n], [2, '', 0]);
  assert.match(r.stderr, /--jq ".data \|\|\|" is not a jq filter: jq: error: syntax error/);
  const failed = await run(['pr', 'get', '999', '--jq', '.data.id']);
  assert.equal([failed.code, failed.stdout], [4, '']);
  assert.match(failed.stderr, 'error:');
});

test.run();
