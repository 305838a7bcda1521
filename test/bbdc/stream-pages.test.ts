// streamPages holds one page at a time: the page already written can be collected while the next one is fetched.
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext, Script } from 'node:vm';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { BitbucketClient } from '../../src/bbdc/api/client.ts';
import { collectAfter, holdYoungGeneration } from '../../src/bbdc/api/page-memory.ts';
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

test('a page of 100 items or more is collected while the next one is fetched', async () => {
  let first: WeakRef<object> | undefined;
  let atSecondAnswer: object | undefined | 'not asked' = 'not asked';
  const client = {
    get: (_path: string, query: { start: number }) => {
      if (query.start === 0) {
        const values = Array.from({ length: collectAfter }, (_, n) => ({ n }));
        const page = {
          values,
          size: collectAfter,
          limit: collectAfter,
          start: 0,
          isLastPage: false,
          nextPageStart: collectAfter,
        };
        first = new WeakRef(page);
        // Answered in a later turn of the event loop, as over a network (a WeakRef keeps its target alive until the
        // turn that made it ends).
        return new Promise((resolve) => setImmediate(() => resolve(page)));
      }
      // No gc() here or in the test: only streamPages can have collected the first page by then.
      return new Promise((resolve) =>
        setImmediate(() => {
          atSecondAnswer = first?.deref();
          resolve({ values: [{ n: -1 }], size: 1, limit: 1, start: collectAfter, isLastPage: true });
        }),
      );
    },
  } as unknown as BitbucketClient;
  const items: unknown[] = [];
  for await (const item of streamPages(client, '/rest/api/latest/repos', {}, undefined)) items.push(item);
  assert.is(items.length, collectAfter + 1);
  assert.is(atSecondAnswer, undefined, 'the first page was still in memory when the second arrived');
});

test('only a page of 100 items or more is followed by a full collection', async () => {
  const forcedMajor = async (pageSize: number) => {
    let count = 0;
    const observer = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        const { kind, flags } = (e as unknown as { detail: { kind: number; flags: number } }).detail;
        if (
          kind === constants.NODE_PERFORMANCE_GC_MAJOR &&
          flags & constants.NODE_PERFORMANCE_GC_FLAGS_FORCED
        )
          count++;
      }
    });
    observer.observe({ entryTypes: ['gc'] });
    const client = {
      get: (_path: string, query: { start: number }) => {
        const values = Array.from({ length: pageSize }, (_, n) => ({ n: query.start + n }));
        const last = query.start >= 2 * pageSize;
        const page = { values, size: pageSize, limit: pageSize, start: query.start, isLastPage: last };
        return new Promise((resolve) =>
          setImmediate(() => resolve(last ? page : { ...page, nextPageStart: query.start + pageSize })),
        );
      },
    } as unknown as BitbucketClient;
    let items = 0;
    for await (const _ of streamPages(client, '/rest/api/latest/repos', {}, undefined)) items++;
    assert.is(items, 3 * pageSize);
    await new Promise((r) => setTimeout(r, 10)); // the observer is told after the collection
    observer.disconnect();
    return count;
  };
  assert.is(await forcedMajor(collectAfter - 1), 0, 'pages of 99 items');
  assert.is(await forcedMajor(collectAfter), 2, 'pages of 100 items: one before each page after the first');
});

test('the young generation stays held while any list streams, and the flags are back after the last', () => {
  // V8 refuses a code cache made under other flags: a cache made now is accepted exactly while the flags are as now.
  let n = 0;
  // Sources of one length: V8 checks a cache against the source's length, and a new text each time keeps V8's
  // in-memory compilation cache out of the way.
  const source = () => `(function f() { return ${String(n++).padStart(6, '0')}; })`;
  const data = new Script(source()).createCachedData();
  const asNow = () => !new Script(source(), { cachedData: data }).cachedDataRejected;
  assert.ok(asNow(), 'the probe accepts its own cache');
  const first = holdYoungGeneration();
  const second = holdYoungGeneration();
  assert.not.ok(asNow(), 'held: the growth factor is set');
  first();
  first();
  assert.not.ok(asNow(), 'one list still streams');
  second();
  assert.ok(asNow(), 'both lists ended: the flags are back');
});

test.run();
