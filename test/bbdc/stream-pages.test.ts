// streamPages holds one page at a time (a client that reads whole pages): the page already written can be collected
// while the next one is fetched.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { BitbucketClient } from '../../src/bbdc/api/client.ts';
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

test.run();
