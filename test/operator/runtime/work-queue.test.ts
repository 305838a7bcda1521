import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { manualClock } from '../../../src/core/clock.ts';
import { backoffDelay, reconcileBackoff, seededRandom } from '../../../src/operator/runtime/backoff.ts';
import { type KeyHandler, WorkQueue } from '../../../src/operator/runtime/work-queue.ts';

const flush = () => new Promise<void>((r) => setImmediate(r));

function setup(handler: KeyHandler, concurrency = 2) {
  const clock = manualClock();
  const errors: [string, number][] = [];
  const queue = new WorkQueue(handler, {
    concurrency,
    clock,
    backoff: { baseMs: 100, maxMs: 1000, random: () => 0.5 },
    onError: (key, _e, ms) => errors.push([key, ms]),
  });
  return { clock, queue, errors };
}

/** A handler whose runs stay open until released, recording starts. */
function gated() {
  const started: string[] = [];
  const gates: (() => void)[] = [];
  let active = 0;
  let peak = 0;
  const handler: KeyHandler = async (key) => {
    started.push(key);
    active++;
    peak = Math.max(peak, active);
    await new Promise<void>((r) => gates.push(r));
    active--;
    return undefined;
  };
  const releaseAll = () => {
    for (const g of gates.splice(0)) g();
  };
  return { handler, started, releaseAll, peak: () => peak };
}

test('backoff doubles per failure, caps at the maximum, and jitters within [step/2, step)', () => {
  const opts = (r: number) => ({ baseMs: 100, maxMs: 1000, random: () => r });
  const table: [number, number, number][] = [
    [1, 0, 50],
    [1, 0.999, 99],
    [2, 0, 100],
    [3, 0.5, 300],
    [5, 0, 500],
    [50, 0.5, 750],
  ];
  for (const [n, r, want] of table) assert.is(backoffDelay(n, opts(r)), want, `failures=${n} random=${r}`);
});

test("a reconcile's retries are never longer apart than the drift interval (a Keycloak back is seen within one)", () => {
  const top = (driftMs: number) =>
    backoffDelay(
      30,
      reconcileBackoff(driftMs, () => 0.999999),
    );
  assert.ok(top(60_000) < 60_000 && top(60_000) >= 59_000, String(top(60_000)));
  assert.ok(
    top(3_600_000) < 300_000 && top(3_600_000) >= 299_000,
    'a long interval keeps the five-minute cap',
  );
  assert.is(
    backoffDelay(
      1,
      reconcileBackoff(60_000, () => 0),
    ),
    250,
    'the first retry as before',
  );
});

test('a seeded random source repeats its sequence', () => {
  const a = seededRandom(42);
  const b = seededRandom(42);
  const xs = [a(), a(), a()];
  assert.equal(xs, [b(), b(), b()]);
  for (const x of xs) assert.ok(x >= 0 && x < 1);
  assert.is.not(seededRandom(7)(), xs[0]);
});

test('keys added while waiting are deduplicated; concurrency is bounded', async () => {
  const g = gated();
  const { queue } = setup(g.handler, 2);
  for (const k of ['a', 'b', 'c', 'd', 'c', 'd', 'c']) queue.add(k);
  await flush();
  assert.equal(g.started, ['a', 'b']);
  assert.is(queue.depth(), 2);
  while (g.started.length < 4) {
    g.releaseAll();
    await flush();
  }
  g.releaseAll();
  await queue.idle();
  assert.equal(g.started, ['a', 'b', 'c', 'd']);
  assert.is(g.peak(), 2);
});

test('a key added while it runs runs once more afterwards, never twice at once', async () => {
  const g = gated();
  const { queue } = setup(g.handler, 4);
  queue.add('a');
  await flush();
  queue.add('a');
  queue.add('a');
  await flush();
  assert.equal(g.started, ['a']);
  g.releaseAll();
  await flush();
  assert.equal(g.started, ['a', 'a']);
  g.releaseAll();
  await queue.idle();
  assert.is(g.peak(), 1);
});

test('failures retry with growing backoff; success resets the count', async () => {
  let calls = 0;
  const { queue, clock, errors } = setup(async () => {
    calls++;
    if (calls <= 3) throw new Error('boom');
    return undefined;
  });
  queue.add('ns/x');
  await queue.idle();
  assert.equal(errors, [['ns/x', 75]]);
  clock.advance(74);
  await flush();
  assert.is(calls, 1);
  clock.advance(1);
  await queue.idle();
  assert.is(calls, 2);
  clock.advance(150);
  await queue.idle();
  clock.advance(300);
  await queue.idle();
  assert.is(calls, 4);
  assert.equal(
    errors.map(([, ms]) => ms),
    [75, 150, 300],
  );
  assert.is(queue.failures('ns/x'), 0);
  assert.is(clock.pending(), 0);
});

test('requeueAfter schedules one later run; an earlier delayed add wins over a later one', async () => {
  const runs: number[] = [];
  const { queue, clock } = setup(async () => {
    runs.push(clock.now());
    return runs.length === 1 ? { requeueAfterMs: 1000 } : undefined;
  });
  const t0 = clock.now();
  queue.add('k');
  await queue.idle();
  queue.addAfter('k', 5000);
  queue.addAfter('k', 200);
  assert.is(clock.pending(), 1);
  clock.advance(5000);
  await queue.idle();
  assert.equal(
    runs.map((t) => t - t0),
    [0, 200],
  );
});

test('shutdown cancels retries, drops waiting keys and waits for running handlers', async () => {
  const g = gated();
  const { queue, clock } = setup(g.handler, 1);
  queue.add('a');
  queue.add('b');
  queue.addAfter('c', 100);
  await flush();
  let done = false;
  const stopping = queue.shutdown().then(() => {
    done = true;
  });
  await flush();
  assert.is(done, false);
  g.releaseAll();
  await stopping;
  clock.advance(1000);
  queue.add('d');
  await flush();
  assert.equal(g.started, ['a']);
});

test.run();
