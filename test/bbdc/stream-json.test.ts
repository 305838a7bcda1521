import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { BitbucketClient } from '../../src/bbdc/api/client.ts';
import { streamPages } from '../../src/bbdc/api/paging.ts';
import { lazyList, materialize, writeJson } from '../../src/bbdc/output/stream-json.ts';
import { credentials } from '../fake-bitbucket/state.ts';
import { withFake } from './helpers/fake.ts';
import { createWorld } from './helpers/world.ts';

const test = suite('bbdc streamed --json output');

async function* items<T>(...values: T[]) {
  for (const v of values) yield v;
}
const text = async (value: unknown) => {
  let out = '';
  await writeJson(value, async (c) => {
    out += c;
  });
  return out;
};

test('writeJson writes what JSON.stringify writes for plain data', async () => {
  const values = [
    { a: 1, b: 'x', c: [1, { d: null }], e: undefined, f: true },
    [1, 'two', { three: [3] }],
    'plain',
    42,
    null,
    { when: new Date(0), nested: { deep: { deeper: [] } } },
  ];
  for (const v of values) assert.is(await text(v), JSON.stringify(v));
});

test('data without a lazy list is written in one piece, as JSON.stringify writes it', async () => {
  // pr get's envelope: a write and an await for each field cost more than the whole text.
  const data = {
    version: 'v2',
    data: { id: 1, author: { user: { name: 'a' } }, reviewers: [] },
    meta: { n: 1 },
  };
  const chunks: string[] = [];
  await writeJson(data, async (c) => {
    chunks.push(c);
  });
  assert.equal(chunks, [JSON.stringify(data)]);
  // One list anywhere in it and the fields are written in order, the list item by item.
  const nested = { data: { values: await lazyList(items(1, 2)), size: 2 } };
  const parts: string[] = [];
  await writeJson(nested, async (c) => {
    parts.push(c);
  });
  assert.is(parts.join(''), '{"data":{"values":[1,2],"size":2}}');
  assert.ok(parts.length > 3, parts.join(' | '));
});

test('a lazy list streams item by item, and a getter after it sees it finished', async () => {
  let count = 0;
  async function* counted() {
    for await (const v of items({ n: 1 }, { n: 2 }, { n: 3 })) {
      count++;
      yield v;
    }
  }
  const data = {
    list: await lazyList(counted()),
    get count() {
      return count;
    },
  };
  assert.is(await text(data), '{"list":[{"n":1},{"n":2},{"n":3}],"count":3}');
  const empty = { list: await lazyList(items()) };
  assert.equal(await materialize(empty), { list: [] });
});

test('the first item is awaited up front, so a failing first request fails before any output', async () => {
  async function* failing(): AsyncGenerator<number> {
    yield* [];
    throw new Error('401 from the first page');
  }
  await lazyList(failing()).then(
    () => assert.unreachable('should fail'),
    (e: Error) => assert.is(e.message, '401 from the first page'),
  );
});

test('streamPages stops at a page that does not advance with an error naming the endpoint', async () => {
  const asked: number[] = [];
  const client = {
    get: async (_path: string, query: { start: number }) => {
      asked.push(query.start);
      return {
        values: [query.start],
        size: 1,
        limit: 1,
        start: query.start,
        isLastPage: false,
        nextPageStart: 0,
      };
    },
  } as unknown as BitbucketClient;
  const got: number[] = [];
  try {
    for await (const v of streamPages<number>(client, '/x', {}, undefined, 0)) got.push(v);
    assert.unreachable('must stop with an error');
  } catch (error) {
    assert.match((error as Error).message, /GET \/x answered a page at start 0 whose nextPageStart is 0/);
  }
  assert.equal([got, asked], [[0], [0]], 'the first page was given out, and asked for once');
});

test('repo list --json writes repositories while later pages are still to be fetched', async () => {
  const fake = await withFake('large');
  const writes: number[] = [];
  let out = '';
  const w = createWorld({ env: { BBDC_URL: fake.url, BBDC_TOKEN: credentials.alice.token } });
  const stdout = {
    write: (t: string) => {
      writes.push(fake.requests.length);
      out += t;
      return true;
    },
  };
  const before = fake.requests.length;
  const r = await w.run(['repo', 'list', '--project', 'BIG', '--limit', '3000', '--json'], {
    deps: { stdout },
  });
  assert.is(r.code, 0, r.stderr);
  const data = JSON.parse(out).data;
  assert.equal([data.count, data.repositories.length, data.truncated], [3000, 3000, true]);
  assert.is(fake.requests.length - before, 3);
  assert.is(writes[0] - before, 1, 'output began after the first of three pages');
  assert.ok(writes.length > 3, `written in ${writes.length} pieces`);
  w.dispose();
  await fake.stop();
});

test.run();
