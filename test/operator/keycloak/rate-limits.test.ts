// The two-level limiter, measured with wide margins: a global limit bounds the total rate, and one busy namespace
// waits in its own queue without holding back another namespace.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
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

test('a global limit of 20/s with a burst of 5 lets 25 calls through in no less than about 1 s', async () => {
  const obs = observer();
  const limiter = createRateLimiter(
    { global: { tps: 20, burst: 5 }, namespace: { tps: 1000, burst: 1000 } },
    obs,
  );
  const started = performance.now();
  await Promise.all(Array.from({ length: 25 }, (_, i) => limiter.acquire(`ns-${i % 5}`)));
  const seconds = (performance.now() - started) / 1000;
  await limiter.stop();
  assert.ok(seconds >= 0.8, `25 calls at 20/s after a burst of 5 took ${seconds.toFixed(2)} s`);
  assert.ok(seconds < 5, `and not absurdly long (${seconds.toFixed(2)} s)`);
  assert.ok(
    obs.waits.global.some((s) => s > 0.5),
    'the global waits are reported',
  );
  assert.ok(obs.maxQueued() >= 10, 'queued calls are reported');
});

test('a busy namespace waits in its own queue: a call from another namespace goes at once', async () => {
  const obs = observer();
  const limiter = createRateLimiter(
    { global: { tps: 1000, burst: 100 }, namespace: { tps: 5, burst: 2 } },
    obs,
  );
  const busy = Array.from({ length: 12 }, () => limiter.acquire('busy'));
  await new Promise((r) => setTimeout(r, 50));
  const started = performance.now();
  await limiter.acquire('quiet');
  const quietMs = performance.now() - started;
  let busyDone = false;
  void Promise.all(busy).then(() => {
    busyDone = true;
  });
  assert.ok(quietMs < 500, `the quiet namespace waited ${quietMs.toFixed(0)} ms`);
  assert.not.ok(busyDone, 'the busy namespace is still waiting for its slots');
  await Promise.all(busy);
  await limiter.stop();
  assert.ok(
    obs.waits.namespace.some((s) => s > 1),
    'the busy namespace waited about 2 s in its own bucket',
  );
});

test.run();
