// streamPages with a client that streams (the real one): each page's items are given while its body still arrives.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createClient } from '../../src/bbdc/api/client.ts';
import { collectPages, streamPages } from '../../src/bbdc/api/paging.ts';
import type { HttpRequest, OpenResponse, Transport } from '../../src/bbdc/api/transport-types.ts';
import { TransportError } from '../../src/bbdc/api/transport-types.ts';
import { createLogger } from '../../src/bbdc/output/logger.ts';
import type { Clock } from '../../src/core/clock.ts';

const test = suite('streamPages, streamed');

/** A body that gives each chunk when the test releases it: `next()` lets one more chunk through. */
function gate() {
  let open = 0;
  let wake = () => {};
  return {
    next() {
      open++;
      wake();
    },
    async *body(chunks: string[], fail?: Error) {
      for (let i = 0; i < chunks.length; i++) {
        while (open <= i) await new Promise<void>((r) => (wake = r));
        yield Buffer.from(chunks[i]);
      }
      if (fail) throw fail;
    },
  };
}

/** A client over a transport whose `open` answers each request with `answer(request)`. */
function clientOf(answer: (req: HttpRequest) => Partial<OpenResponse> & { body: AsyncIterable<Buffer> }) {
  const requests: string[] = [];
  const discarded: number[] = [];
  const transport: Transport = {
    send: () => Promise.reject(new Error('a streamed list never reads whole')),
    async open(req) {
      requests.push(req.url.replace('http://bb', ''));
      const res = answer(req);
      return {
        status: 200,
        headers: {},
        text: async () => '',
        discard: () => discarded.push(requests.length),
        ...res,
      };
    },
    close: async () => {},
  };
  // Retries wait no time.
  const clock: Clock = {
    now: () => 0,
    monotonic: () => 0,
    setTimer: (_ms, fire) => {
      queueMicrotask(fire);
      return { cancel: () => {} };
    },
  };
  const logger = createLogger({ level: 'warn', format: 'text', out: { write: () => true }, clock });
  const client = createClient({
    baseUrl: 'http://bb',
    transport,
    retry: { retries: 2, backoffMs: 1, maxDelayMs: 1 },
    clock,
    logger,
  });
  return { client, requests, discarded };
}

const page = (values: unknown[], more: object) => JSON.stringify({ size: values.length, values, ...more });

test('an item is given as soon as its bytes are in, before the rest of its page', async () => {
  const g = gate();
  const text = page([{ id: 1 }, { id: 2 }], { isLastPage: true });
  const cut = text.indexOf('{"id":2');
  const { client } = clientOf(() => ({ body: g.body([text.slice(0, cut), text.slice(cut)]) }));
  const items = streamPages<{ id: number }>(client, '/r', {}, undefined);
  g.next();
  // Turns of the event loop, not time: the first chunk is all there is until the test lets the second through.
  const turns = async (n: number) => {
    for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
    return 'still waiting for the rest of the page';
  };
  const first = await Promise.race([items.next().then((r) => r.value), turns(20)]);
  assert.equal(first, { id: 1 }, 'the first item, while the second is still to come');
  g.next();
  assert.equal((await items.next()).value, { id: 2 });
  assert.ok((await items.next()).done);
});

test('pages follow nextPageStart; a 16-digit id stays exact; --limit cuts the page the server overfilled', async () => {
  const { client, requests } = clientOf((req) => {
    const start = Number(new URL(req.url).searchParams.get('start'));
    if (start === 0)
      return {
        // Written as text: a JavaScript number would already be rounded.
        body: (async function* () {
          yield Buffer.from(
            '{"size":1,"values":[{"id":9007199254740993}],"isLastPage":false,"nextPageStart":5}',
          );
        })(),
      };
    return {
      body: (async function* () {
        yield Buffer.from(page([{ id: 2 }, { id: 3 }, { id: 4 }], { isLastPage: false, nextPageStart: 8 }));
      })(),
    };
  });
  const { values, truncated } = await collectPages<{ id: unknown }>(client, '/r', {}, 3);
  assert.equal(values, [{ id: 9007199254740993n }, { id: 2 }, { id: 3 }]);
  assert.ok(truncated);
  assert.equal(requests, ['/r?start=0&limit=3', '/r?start=5&limit=2']);
});

test('a page whose nextPageStart does not advance stops with the error naming the endpoint', async () => {
  const { client, requests } = clientOf(() => ({
    body: (async function* () {
      yield Buffer.from(page([1], { isLastPage: false, nextPageStart: 0 }));
    })(),
  }));
  await collectPages<number>(client, '/x', {}, undefined).then(
    () => assert.unreachable('must stop'),
    (e: Error) => assert.match(e.message, /GET \/x answered a page at start 0 whose nextPageStart is 0/),
  );
  assert.is(requests.length, 1);
});

test('a 503 is retried with its body discarded; a connection lost inside a page is asked for again from the next item', async () => {
  let n = 0;
  const lost = new TransportError('GET http://bb/r: aborted (ECONNRESET)', 'ECONNRESET', true);
  const { client, discarded, requests } = clientOf((req) => {
    n++;
    if (n === 1) return { status: 503, body: (async function* () {})() };
    if (n === 2)
      return {
        body: (async function* () {
          yield Buffer.from('{"values":[{"id":1},{"id":2},');
          throw lost;
        })(),
      };
    const start = Number(new URL(req.url).searchParams.get('start'));
    const values = [1, 2, 3, 4].filter((id) => id > start).map((id) => ({ id }));
    return {
      body: (async function* () {
        yield Buffer.from(page(values, { isLastPage: true }));
      })(),
    };
  });
  const { values } = await collectPages<{ id: number }>(client, '/r', {}, undefined);
  assert.equal(values, [{ id: 1 }, { id: 2 }, { id: 3 }, { id: 4 }], 'each item once, none lost');
  assert.equal(discarded, [1], "the 503's body");
  assert.equal(requests, ['/r?start=0&limit=1000', '/r?start=0&limit=1000', '/r?start=2&limit=1000']);
});

test('a page cut again and again fails as transient once the retries are spent, its items given once', async () => {
  const lost = new TransportError('GET http://bb/r: aborted (ECONNRESET)', 'ECONNRESET', true);
  let id = 0;
  const { client, requests } = clientOf(() => ({
    body: (async function* () {
      id++;
      yield Buffer.from(`{"values":[{"id":${id}},`);
      throw lost;
    })(),
  }));
  const got: unknown[] = [];
  try {
    for await (const v of streamPages(client, '/r', {}, undefined)) got.push(v);
    assert.unreachable('must fail');
  } catch (error) {
    assert.is((error as { kind?: string }).kind, 'transient');
    assert.match((error as Error).message, 'ECONNRESET) while the page was read');
  }
  assert.equal(got, [{ id: 1 }, { id: 2 }, { id: 3 }], 'the first try and its 2 retries');
  assert.equal(requests, ['/r?start=0&limit=1000', '/r?start=1&limit=1000', '/r?start=2&limit=1000']);
});

test('a bare array is read as its items, and text that is no JSON ends the list', async () => {
  const { client } = clientOf((req) => ({
    body: (async function* () {
      yield Buffer.from(req.url.includes('/a') ? '[1,2,3]' : 'oops');
    })(),
  }));
  assert.equal(await collectPages(client, '/a', {}, 2), { values: [1, 2], truncated: true });
  assert.equal(await collectPages(client, '/b', {}, 2), { values: [], truncated: false });
});

test.run();
