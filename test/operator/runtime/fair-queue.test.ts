// Fair across namespaces: waiting keys are taken round-robin by namespace; a namespace whose calls wait for its
// rate limit starts no new key and its waiting keys hold no worker, so another namespace's key runs at once.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { manualClock } from '../../../src/core/clock.ts';
import { createRateLimiter } from '../../../src/operator/keycloak/rate-limits.ts';
import {
  type KeyHandler,
  type NamespaceThrottle,
  WorkQueue,
} from '../../../src/operator/runtime/work-queue.ts';

const flush = () => new Promise<void>((r) => setImmediate(r));

/** A throttle whose waiting counts the test sets. */
function manualThrottle() {
  const counts = new Map<string, number>();
  const listeners = new Set<() => void>();
  const throttle: NamespaceThrottle = {
    waiting: (ns) => counts.get(ns) ?? 0,
    onChange(l) {
      listeners.add(l);
      return () => listeners.delete(l);
    },
  };
  const set = (ns: string, n: number) => {
    counts.set(ns, n);
    for (const l of listeners) l();
  };
  return { throttle, set };
}

function queueOf(handler: KeyHandler, concurrency: number, throttle?: NamespaceThrottle) {
  return new WorkQueue(handler, {
    concurrency,
    clock: manualClock(),
    backoff: { baseMs: 10, maxMs: 10, random: () => 0 },
    throttle,
  });
}

test('waiting keys are taken round-robin by namespace, not in arrival order', async () => {
  const order: string[] = [];
  const queue = queueOf(async (key) => {
    order.push(key);
    return undefined;
  }, 1);
  for (const k of ['a/1', 'a/2', 'a/3', 'b/1', 'c/1', 'b/2']) queue.add(k);
  await queue.idle();
  assert.equal(order, ['a/1', 'b/1', 'c/1', 'a/2', 'b/2', 'a/3']);
});

test('keys waiting for their namespace limit hold no worker; that namespace starts nothing new meanwhile', async () => {
  const { throttle, set } = manualThrottle();
  const started: string[] = [];
  const gates = new Map<string, () => void>();
  const queue = queueOf(
    async (key) => {
      started.push(key);
      await new Promise<void>((r) => gates.set(key, r));
      return undefined;
    },
    2,
    throttle,
  );
  for (const k of ['busy/1', 'busy/2', 'busy/3', 'busy/4']) queue.add(k);
  await flush();
  assert.equal(started, ['busy/1', 'busy/2'], 'two workers');
  set('busy', 2); // both running keys now wait for the namespace's tokens
  await flush();
  assert.equal(started, ['busy/1', 'busy/2'], 'no new key of the throttled namespace');
  queue.add('quiet/1');
  await flush();
  assert.equal(started, ['busy/1', 'busy/2', 'quiet/1'], 'the other namespace runs at once');
  set('busy', 0);
  gates.get('busy/1')?.();
  await flush();
  assert.equal(started.length, 3, 'no longer waiting, busy counts against the worker bound again');
  gates.get('quiet/1')?.();
  await flush();
  assert.equal(started.slice(3), ['busy/3'], 'busy resumes as its limit allows');
  for (const g of gates.values()) g();
  await flush();
  for (const g of gates.values()) g();
  await queue.idle();
  assert.is(started.length, 5);
});

test('with the real limiter: a quiet namespace finishes before the busy one has used its queue', async () => {
  const clock = manualClock();
  const limiter = createRateLimiter(
    { global: { tps: 1000, burst: 1000 }, namespace: { tps: 20, burst: 1 } },
    { waited() {}, queued() {} },
    clock,
  );
  const done: string[] = [];
  const queue = queueOf(
    async (key) => {
      for (let i = 0; i < 3; i++) await limiter.acquire(key.split('/')[0] as string);
      done.push(key);
      return undefined;
    },
    2,
    limiter,
  );
  for (let i = 0; i < 6; i++) queue.add(`busy/${i}`);
  await flush();
  queue.add('quiet/0');
  let idle = false;
  const settled = queue.idle().then(() => {
    idle = true;
  });
  // The limiter runs on the manual clock: time moves 10 ms at a time until the queue is idle.
  while (!idle) {
    clock.advance(10);
    await flush();
  }
  await settled;
  await limiter.stop();
  assert.is(done.length, 7);
  assert.ok(done.indexOf('quiet/0') <= 1, `quiet finished at position ${done.indexOf('quiet/0')} of ${done}`);
});

test('with the real limiter and tokens to spare, calls do not free workers: never more keys at once than the bound', async () => {
  const limiter = createRateLimiter(
    { global: { tps: 1000, burst: 1000 }, namespace: { tps: 1000, burst: 1000 } },
    { waited() {}, queued() {} },
    manualClock(),
  );
  let running = 0;
  let most = 0;
  const queue = queueOf(
    async (key) => {
      running++;
      most = Math.max(most, running);
      for (let i = 0; i < 3; i++) {
        await limiter.acquire(key.split('/')[0] as string);
        await flush();
      }
      running--;
      return undefined;
    },
    2,
    limiter,
  );
  for (let i = 0; i < 8; i++) queue.add(`team-${i % 4}/${i}`);
  await queue.idle();
  await limiter.stop();
  assert.is(most, 2);
});

test.run();
