// The two-level limiter on the manual clock, with exact waits: a global limit bounds the total rate, and one busy
// namespace waits in its own queue without holding back another namespace.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { manualClock } from '../../../src/core/clock.ts';
import { createRateLimiter } from '../../../src/operator/keycloak/rate-limits.ts';

const observer = () => {
  const waits: Record<string, number[]> = { namespace: [], global: [] };
  let queued = 0;
  let maxQueued = 0;
  return {
    waits,
    maxQueued: () => maxQueued,
    waited: (scope: 'namespace' | 'global', s: number) => waits[scope].push(s),
    queued: (_: string, d: number) => {
      queued += d;
      maxQueued = Math.max(maxQueued, queued);
    },
  };
};

/** Lets resolved promises run (no time passes). */
const flush = () => new Promise((r) => setImmediate(r));

/** Starts `calls` acquisitions and records the clock time each one got through. */
function acquireAll(
  limiter: { acquire(ns: string): Promise<void> },
  clock: { now(): number },
  namespaces: string[],
) {
  const start = clock.now();
  const at: number[] = [];
  const all = Promise.all(
    namespaces.map((ns) => limiter.acquire(ns).then(() => at.push(clock.now() - start))),
  );
  return { at, all };
}

test('a global limit of 20/s with a burst of 5: 5 calls at once, then one every 50 ms, the 25th at 1 s', async () => {
  const clock = manualClock();
  const obs = observer();
  const limiter = createRateLimiter(
    { global: { tps: 20, burst: 5 }, namespace: { tps: 1000, burst: 1000 } },
    obs,
    clock,
  );
  const { at, all } = acquireAll(
    limiter,
    clock,
    Array.from({ length: 25 }, (_, i) => `ns-${i % 5}`),
  );
  await flush();
  assert.is(at.length, 5, 'the burst goes at once');
  for (let step = 1; step <= 20; step++) {
    clock.advance(50);
    await flush();
    assert.is(at.length, 5 + step, `one more call every 50 ms (at ${step * 50} ms)`);
  }
  await all;
  assert.is(at.at(-1), 1000);
  assert.is(Math.max(...obs.waits.global), 1, 'the last call waited 1 s for the global bucket');
  assert.ok(obs.maxQueued() >= 20, 'queued calls are reported');
  await limiter.stop();
});

test('a busy namespace waits in its own queue: a call from another namespace goes at once', async () => {
  const clock = manualClock();
  const obs = observer();
  const limiter = createRateLimiter(
    { global: { tps: 1000, burst: 100 }, namespace: { tps: 5, burst: 2 } },
    obs,
    clock,
  );
  const busy = acquireAll(
    limiter,
    clock,
    Array.from({ length: 12 }, () => 'busy'),
  );
  await flush();
  assert.is(busy.at.length, 2, 'the busy namespace spends its burst');
  assert.is(limiter.waiting('busy'), 10);
  clock.advance(100);
  const quiet = acquireAll(limiter, clock, ['quiet']);
  await flush();
  assert.equal(quiet.at, [0], 'the quiet namespace did not wait');
  assert.is(busy.at.length, 2, 'the busy one still waits for its slots');
  clock.advance(100);
  await flush();
  for (let step = 0; step < 9; step++) {
    clock.advance(200);
    await flush();
  }
  await busy.all;
  assert.equal(busy.at, [0, 0, 200, 400, 600, 800, 1000, 1200, 1400, 1600, 1800, 2000], 'then 5 per second');
  assert.is(Math.max(...obs.waits.namespace), 2, 'the last busy call waited 2 s in its own bucket');
  await limiter.stop();
});

test.run();
