// The change signal's cursor: a clean resync remembered, nothing read again while the newest admin event and the
// fingerprint stay; everything read again after a new event (a hand edit or the operator's own write), an event
// gone (expired), no memory (a restart), a changed resource, a failed cursor read, and each full-resync period.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { manualClock } from '../../../src/core/clock.ts';
import type { AdminClient } from '../../../src/operator/keycloak/admin-client.ts';
import {
  changeDetection,
  changeSignalFields,
  createdCursor,
  fingerprint,
} from '../../../src/operator/keycloak/change-detection.ts';

type Event = {
  id: string;
  time: number;
  operationType: string;
  resourcePath: string;
  authDetails: { userId: string };
};

/** Keycloak's admin-events endpoint, newest first, counting its reads; `down` answers 503. */
function keycloak() {
  const k = { events: [] as Event[], reads: 0, down: false, paths: [] as string[] };
  const admin: AdminClient = {
    baseUrl: 'http://kc',
    async call<T>(_ns: string, _method: string, path: string) {
      k.reads++;
      k.paths.push(path);
      if (k.down) throw new Error('HTTP 503');
      const max = Number(new URL(path, 'http://kc').searchParams.get('max'));
      return { status: 200, body: [...k.events].reverse().slice(0, max) as T };
    },
  };
  /** An admin event, by a person unless `userId` says otherwise. */
  const edit = (resourcePath: string, userId = 'a-person', operationType = 'UPDATE') =>
    k.events.push({
      id: `e${k.events.length}`,
      time: k.events.length,
      operationType,
      resourcePath,
      authDetails: { userId },
    });
  return { k, admin, edit };
}

const interval = 60_000;
const operator = 'operator-service-account';
function world() {
  const clock = manualClock();
  const woken: string[] = [];
  const changes = changeDetection({
    clock,
    driftIntervalMs: interval,
    fullResyncPeriodMs: 40 * interval,
    own: (userId) => userId === operator,
    wake: (consumer) => woken.push(consumer),
  });
  const kc = keycloak();
  /** One resync of `consumer` (the realm's reads the event itself): a full read settles (when `wrote` is false);
   * returns whether it read everything. */
  const pass = async (consumer = 'realm a', fp = 'f1', wrote = false) => {
    const reads = consumer.startsWith('realm');
    const check = await changes.check<{ id: string }>(kc.admin, 'ns', 'a', consumer, fp, { reads });
    if (check.unchanged) return 'skipped';
    changes.forget(consumer);
    if (!wrote) changes.settle(consumer, fp, check.cursor, { id: 'a-id' });
    return 'read';
  };
  /** The same, one interval later. */
  const later = (...args: Parameters<typeof pass>) => {
    clock.advance(interval);
    return pass(...args);
  };
  return { clock, changes, woken, ...kc, pass, later };
}

test('a clean full read is remembered: the next pass reads only the newest admin event', async () => {
  const w = world();
  w.edit('roles/x');
  assert.is(await w.pass(), 'read', 'no memory yet (a restart, a leader change): everything');
  w.clock.advance(interval);
  w.k.reads = 0;
  assert.is(await w.pass(), 'skipped');
  assert.is(w.k.reads, 1, 'one cursor read');
  assert.equal(w.k.paths.at(-1), '/a/admin-events?first=0&max=1');
  const check = await w.changes.check<{ id: string }>(w.admin, 'ns', 'a', 'realm a', 'f1', { reads: true });
  assert.equal(check, { unchanged: true, memo: { id: 'a-id' } }, 'what the clean pass kept');
});

test('a hand edit (a new admin event) reads everything within one interval, then settles again', async () => {
  const w = world();
  await w.pass();
  w.clock.advance(interval);
  w.edit('groups/g1');
  assert.is(await w.pass(), 'read');
  assert.is(await w.later(), 'skipped');
});

test("the operator's own writes are not trusted: the pass after a write reads everything once more", async () => {
  const w = world();
  await w.pass();
  w.clock.advance(interval);
  w.edit('clients/c1');
  assert.is(await w.pass('realm a', 'f1', true), 'read', 'the revert (it wrote)');
  w.edit('clients/c1'); // the revert's own event
  assert.is(await w.later(), 'read', 'not settled by a pass that wrote');
  assert.is(await w.later(), 'skipped');
});

test('an event gone (expired) or a cursor that cannot be read: everything', async () => {
  const w = world();
  w.edit('roles/x');
  await w.pass();
  w.clock.advance(interval);
  w.k.events = [];
  assert.is(await w.pass(), 'read', 'the remembered event expired');
  assert.is(await w.later(), 'skipped', 'settled on no event');
  w.clock.advance(interval);
  w.k.down = true;
  assert.is(await w.pass(), 'read');
  w.k.down = false;
  assert.is(await w.later(), 'read', 'a pass without a cursor does not settle');
  assert.is(await w.later(), 'skipped');
});

test('a changed resource or Secret (the fingerprint) reads everything', async () => {
  const w = world();
  await w.pass('realm a', 'f1');
  assert.is(await w.later('realm a', 'f2'), 'read');
  assert.is.not(fingerprint({ password: 'a' }), fingerprint({ password: 'b' }));
  assert.not.match(fingerprint({ password: 'secret-value' }), /secret-value/);
});

test('every full-resync period reads everything even when no event came', async () => {
  const w = world();
  await w.pass();
  let reads = 0;
  for (let i = 0; i < 80; i++) {
    w.clock.advance(interval);
    if ((await w.pass()) === 'read') reads++;
  }
  assert.is(reads, 2, 'twice in 80 intervals at a 40-interval period');
});

test("a realm's resync reads the event for its clients too, and wakes them when it moved", async () => {
  const w = world();
  await w.pass('realm a');
  w.clock.advance(interval / 3);
  await w.pass('client a/web');
  w.k.reads = 0;
  for (let i = 0; i < 10; i++) {
    w.clock.advance(interval / 3);
    assert.is(await w.pass('realm a'), 'skipped');
    w.clock.advance((2 * interval) / 3);
    assert.is(await w.pass('client a/web'), 'skipped');
  }
  assert.is(w.k.reads, 10, "one read per interval, the realm's: the client uses it");
  w.edit('clients/web');
  w.clock.advance(interval / 3);
  assert.equal(w.woken, []);
  assert.is(await w.pass('realm a'), 'read', "the realm's own read sees the edit");
  assert.equal(w.woken, ['client a/web'], 'and runs the client at once, within one interval of the edit');
  w.k.reads = 0;
  assert.is(await w.pass('client a/web'), 'read', 'the woken client reads everything');
  assert.is(w.k.reads, 0, "through the realm's read");
  w.clock.advance(interval);
  assert.is(await w.pass('realm a'), 'skipped', 'both settled');
  assert.is(await w.pass('client a/web'), 'skipped');
  assert.is(w.woken.length, 1, 'an unmoved event wakes nobody');
});

test("a client reads the event itself when the realm's read is over an interval old", async () => {
  const w = world();
  await w.pass('realm a');
  await w.pass('client a/web');
  w.clock.advance(interval + 1);
  w.k.reads = 0;
  assert.is(await w.pass('client a/web'), 'skipped');
  assert.is(w.k.reads, 1, 'its own read: the realm has not resynced for an interval');
});

test("the operator's own writes are no change to the consumers that did not make them", async () => {
  const w = world();
  await w.pass('realm a');
  await w.pass('client a/web');
  w.edit('clients/web', operator); // the client's reconcile wrote (and forgot itself)
  w.changes.forget('client a/web');
  w.clock.advance(interval);
  w.k.reads = 0;
  assert.is(await w.pass('realm a'), 'skipped', "the realm's sections: nobody else wrote");
  assert.equal(w.k.paths.slice(-2), ['/a/admin-events?first=0&max=1', '/a/admin-events?first=0&max=50']);
  assert.equal(w.woken, [], 'nobody woken');
  assert.is(await w.pass('client a/web'), 'read', 'the writer reads once more');
  w.clock.advance(interval);
  w.k.reads = 0;
  assert.is(await w.pass('realm a'), 'skipped');
  assert.is(await w.pass('client a/web'), 'skipped');
  assert.is(w.k.reads, 1, 'one read again: the same newest event');
});

test("a person's edit under the operator's own write, an own DELETE, or a memory beyond the window: everything", async () => {
  const w = world();
  await w.pass('realm a');
  w.edit('roles/x');
  w.edit('clients/web', operator);
  assert.is(await w.later('realm a'), 'read', "a person's edit under the operator's write");
  w.edit('client-scopes/s', operator, 'DELETE');
  assert.is(await w.later('realm a'), 'read', 'a scope the operator deleted is unlinked from clients too');
  for (let i = 0; i < 50; i++) w.edit(`clients/c${i}`, operator);
  assert.is(await w.later('realm a'), 'read', 'the remembered event is not among the 50 newest');
  assert.is(await w.later('realm a'), 'skipped');
});

test("a new realm settled as created: the operator's own events keep it, a person's edit reads everything", async () => {
  const w = world();
  const created = createdCursor('http://kc', 'a', []);
  w.changes.settle('realm a', 'f1', created, { id: 'a-id' });
  w.edit('clients/web', operator);
  assert.is(await w.later('realm a'), 'skipped', "the client's creation, by the operator");
  w.edit('roles/x');
  assert.is(await w.later('realm a'), 'read', 'a person edited it');
  assert.is(
    createdCursor('http://kc', 'a', ['/a/client-policies/policies']),
    undefined,
    'policies: read first',
  );
});

test('the realm fields: admin events on and kept a day, unless the spec decides or only observes', () => {
  assert.equal(changeSignalFields({}), {
    adminEventsEnabled: true,
    attributes: { adminEventsExpiration: '86400' },
  });
  assert.equal(changeSignalFields({ events: { adminEventsEnabled: false } }), { attributes: {} });
  assert.equal(changeSignalFields({ events: { adminEventsEnabled: true } }), { attributes: {} });
  const live = { adminEventsEnabled: false, attributes: {} };
  assert.equal(changeSignalFields({ managementPolicy: 'Observe' }, live), {
    adminEventsEnabled: false,
    attributes: {},
  });
});

test.run();
