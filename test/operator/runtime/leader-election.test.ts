// Leader election against an in-memory Lease with optimistic concurrency and a manual clock.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { manualClock } from '../../../src/core/clock.ts';
import { RealmforgeError } from '../../../src/core/errors.ts';
import {
  LeaderElector,
  type LeaseRecord,
  type LeaseStore,
} from '../../../src/operator/runtime/leader-election.ts';

function memoryLease() {
  let stored: LeaseRecord | undefined;
  let version = 0;
  const state = { down: false, writes: 0 };
  const store: LeaseStore = {
    async read() {
      if (state.down) throw new RealmforgeError('transient', 'API server unreachable');
      return stored;
    },
    async create(r) {
      if (stored) throw new RealmforgeError('conflict', 'exists');
      state.writes++;
      stored = { ...r, version: String(++version) };
      return stored;
    },
    async update(r) {
      if (state.down) throw new RealmforgeError('transient', 'API server unreachable');
      if (r.version !== stored?.version) throw new RealmforgeError('conflict', 'stale resourceVersion');
      state.writes++;
      stored = { ...r, version: String(++version) };
      return stored;
    },
  };
  return { store, state, get: () => stored };
}

function elector(store: LeaseStore, id: string, clock: ReturnType<typeof manualClock>) {
  const log: string[] = [];
  const e = new LeaderElector(store, id, clock, {
    onStartedLeading: () => log.push('started'),
    onStoppedLeading: (why) => log.push(`stopped: ${why}`),
  });
  return { e, log };
}

test('exactly one of two replicas leads; the other takes over only after a full lease duration of silence', async () => {
  const clock = manualClock();
  const lease = memoryLease();
  const a = elector(lease.store, 'a', clock);
  const b = elector(lease.store, 'b', clock);
  await a.e.tick();
  await b.e.tick();
  assert.ok(a.e.isLeader());
  assert.not.ok(b.e.isLeader());
  for (let i = 0; i < 5; i++) {
    clock.advance(2000);
    await a.e.tick();
    await b.e.tick();
    assert.ok(a.e.isLeader() && !b.e.isLeader(), 'a renews, b waits');
  }
  // a dies right after its last renewal, which b saw: b takes over once 15 s have passed since then.
  const lastRenewal = clock.now();
  while (clock.now() + 2000 < lastRenewal + 15_000) {
    clock.advance(2000);
    await b.e.tick();
    assert.not.ok(b.e.isLeader(), `not before the lease expires (${clock.now() - lastRenewal} ms)`);
  }
  clock.advance(2000);
  await b.e.tick();
  assert.ok(b.e.isLeader());
  assert.is(lease.get()?.holder, 'b');
  assert.is(lease.get()?.transitions, 1);
  assert.equal(b.log, ['started']);
});

test('a leader that cannot renew stops being leader by the deadline, before anyone else can take over', async () => {
  const clock = manualClock();
  const lease = memoryLease();
  const a = elector(lease.store, 'a', clock);
  await a.e.tick();
  lease.state.down = true;
  clock.advance(9000);
  await a.e.tick();
  assert.ok(a.e.isLeader(), 'still within the renew deadline');
  clock.advance(1500);
  await a.e.tick();
  assert.not.ok(a.e.isLeader());
  assert.is(a.log.filter((l) => l.startsWith('stopped')).length, 1, 'told once');
  assert.match(a.log.at(-1) ?? '', /could not renew the lease for 10 s/);
});

test('isLeader() turns false once the last renewal started the renew deadline (10 s) ago, even without a tick', async () => {
  const clock = manualClock();
  const lease = memoryLease();
  const a = elector(lease.store, 'a', clock);
  await a.e.tick();
  clock.advance(9_999);
  assert.ok(a.e.isLeader());
  clock.advance(1);
  assert.not.ok(a.e.isLeader());
  assert.match(a.log.at(-1) ?? '', /stopped: could not renew the lease for 10 s/, 'the deadline timer fired');
});

/** A store whose calls hang (never answer) while `hang.on` is set: a partitioned or SIGSTOPped replica's view. */
function hanging(store: LeaseStore) {
  const hang = { on: false };
  const wrap =
    <A extends unknown[], R>(fn: (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> =>
      hang.on ? new Promise<R>(() => {}) : fn(...args);
  return { hang, store: { read: wrap(store.read), create: wrap(store.create), update: wrap(store.update) } };
}

test('the documented rule: a leader whose renewals hang stops 10 s after its last renewal started, at least 5 s before another replica takes over', async () => {
  const clock = manualClock();
  const lease = memoryLease();
  const viewA = hanging(lease.store);
  const events: string[] = [];
  const at = () => clock.now();
  const start = at();
  const a = new LeaderElector(viewA.store, 'a', clock, {
    onStartedLeading: () => events.push(`a leads ${at() - start}`),
    onStoppedLeading: () => events.push(`a stops ${at() - start}`),
  });
  const b = new LeaderElector(lease.store, 'b', clock, {
    onStartedLeading: () => events.push(`b leads ${at() - start}`),
    onStoppedLeading: () => events.push(`b stops ${at() - start}`),
  });
  a.start();
  b.start();
  await new Promise((r) => setImmediate(r));
  viewA.hang.on = true; // a's next renewal (at 2 s) never answers
  for (let i = 0; i < 40; i++) {
    clock.advance(1000);
    await new Promise((r) => setImmediate(r));
  }
  await a.stop();
  await b.stop();
  // b first saw a's lease on its tick at 2 s (its tick at 0 raced a's create), so it takes over at 2 + 16 s.
  assert.equal(events, ['a leads 0', 'a stops 10000', 'b leads 18000']);
});

test('lease ages use the monotonic clock: a wall-clock step neither deposes the leader nor hands over early', async () => {
  const base = manualClock();
  let offset = 0;
  const clock = { ...base, now: () => base.now() + offset };
  const lease = memoryLease();
  const a = elector(lease.store, 'a', clock as typeof base);
  const b = elector(lease.store, 'b', clock as typeof base);
  await a.e.tick();
  await b.e.tick();
  offset = 3_600_000; // NTP steps the wall clock an hour ahead
  assert.ok(a.e.isLeader());
  base.advance(2000);
  await b.e.tick();
  assert.not.ok(b.e.isLeader(), 'b has not seen the lease unchanged for 15 s');
  offset = -3_600_000;
  await a.e.tick();
  assert.ok(a.e.isLeader());
});

test('a leader whose lease was taken (a conflict on renew) stops at once; stop() releases the lease for a fast handover', async () => {
  const clock = manualClock();
  const lease = memoryLease();
  const a = elector(lease.store, 'a', clock);
  const b = elector(lease.store, 'b', clock);
  await a.e.tick();
  await a.e.stop();
  assert.is(lease.get()?.holder, '');
  await b.e.tick();
  assert.ok(b.e.isLeader(), 'an empty holder is taken at once');
  // a comes back with a stale view and loses the race.
  const c = elector(lease.store, 'c', clock);
  await c.e.tick();
  assert.not.ok(c.e.isLeader());
});

test.run();
