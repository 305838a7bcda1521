// streamPages holds one page at a time (a client that reads whole pages): the page already written can be collected
// while the next one is fetched; and V8's flags for a list (api/page-memory.ts).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext, Script } from 'node:vm';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { BitbucketClient } from '../../src/bbdc/api/client.ts';
import { holdListFlags } from '../../src/bbdc/api/page-memory.ts';
import { type Page, streamPages } from '../../src/bbdc/api/paging.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const test = suite('streamPages memory');

test('the first page is garbage once its items are consumed and the second request is pending', async () => {
  let first: WeakRef<object> | undefined;
  let release: (page: Page<{ n: number }>) => void = () => {};
  const client = {
    get: (_path: string, query: { start: number }) => {
      if (query.start === 0) {
        const page = {
          values: [{ n: 1 }, { n: 2 }],
          size: 2,
          limit: 2,
          start: 0,
          isLastPage: false,
          nextPageStart: 2,
        };
        first = new WeakRef(page);
        return Promise.resolve(page);
      }
      return new Promise((resolve) => {
        release = resolve;
      });
    },
  } as unknown as BitbucketClient;
  const items = streamPages<{ n: number }>(client, '/rest/api/latest/repos', {}, 3);
  assert.equal((await items.next()).value, { n: 1 });
  assert.equal((await items.next()).value, { n: 2 });
  const third = items.next(); // asks for the second page, which stays pending
  await new Promise((r) => setImmediate(r));
  gc();
  assert.is(first?.deref(), undefined, 'the written page is still referenced while the next one is fetched');
  release({ values: [{ n: 3 }], size: 1, limit: 1, start: 2, isLastPage: true });
  assert.equal((await third).value, { n: 3 });
});

test('the list flags stay set while any list streams, and are back after the last', () => {
  // V8 refuses a code cache made under other flags: a cache made now is accepted exactly while the flags are as now.
  let n = 0;
  // Sources of one length: V8 checks a cache against the source's length, and a new text each time keeps V8's
  // in-memory compilation cache out of the way.
  const source = () => `(function f() { return ${String(n++).padStart(6, '0')}; })`;
  const data = new Script(source()).createCachedData();
  const asNow = () => !new Script(source(), { cachedData: data }).cachedDataRejected;
  // A cache made under exactly the two flags (young generation held, no TurboFan) is accepted while a list streams.
  setFlagsFromString('--semi-space-growth-factor=1 --no-turbofan');
  const listData = new Script(source()).createCachedData();
  setFlagsFromString('--semi-space-growth-factor=2 --turbofan');
  const asList = () => !new Script(source(), { cachedData: listData }).cachedDataRejected;
  assert.ok(asNow(), 'the probe accepts its own cache');
  assert.not.ok(asList(), 'the list flags are not set');
  const first = holdListFlags();
  const second = holdListFlags();
  assert.not.ok(asNow(), 'held: the flags are set');
  assert.ok(asList(), 'held: the flags are the list flags');
  first();
  first();
  assert.not.ok(asNow(), 'one list still streams');
  second();
  assert.ok(asNow(), 'both lists ended: the flags are back');
});

test.run();
