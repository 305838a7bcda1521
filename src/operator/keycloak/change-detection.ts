// Change detection: a steady resync reads one thing, the realm's newest admin event, instead of every section.
// Keycloak records every admin API write (console or API) in a realm with admin events on; the operator turns them
// on in the realms it manages (changeSignalFields). A consumer (a realm's or a client's reconcile) that synced
// clean remembers the newest event it saw then and the fingerprint of what it was asked for; while both are
// unchanged it reads nothing more. The operator's own writes (its identities' events, DELETEs apart) are no change
// but to the pass that made them, which reads once more. Anything else reads everything: a new event (a hand edit),
// an event gone (expired), no memory yet (a
// restart, a leader change), a changed resource or Secret, a failed cursor read, and every full-resync period
// (edits made outside the admin API: the database, an import at boot, an upgrade). The realm's resync reads the
// event and wakes the realm's clients when it moved; between, they use its read, so a realm and its clients cost
// one read per realm resync. Of the few sections Keycloak records no event for, the client policies are read in
// every pass of their realm (unreportedReads), the texts in the full resync.
import { createHash } from 'node:crypto';
import { canonicalJson } from '../../core/canonical-json.ts';
import type { Clock } from '../../core/clock.ts';
import type { AdminClient } from './admin-client.ts';
import { realmClientBound } from './realm-routing.ts';

/** The realm attribute that bounds how long Keycloak keeps admin events (seconds). */
export const adminEventsExpirationAttribute = 'adminEventsExpiration';
/** How long the admin events the operator turned on are kept: one day bounds the table, the cursor needs one. */
export const adminEventsExpirationSeconds = 86_400;

/** Whether the spec leaves admin events to the operator (it turns them on); false: the spec turns them off. */
export const changeSignalOn = (events: { adminEventsEnabled?: boolean } | undefined) =>
  events?.adminEventsEnabled !== false;

/** Why a realm's spec cannot rely on the signal (undefined: it can). */
export function signalGap(spec: { events?: { adminEventsEnabled?: boolean } }): string | undefined {
  if (!changeSignalOn(spec.events))
    return 'admin events are off (spec.events.adminEventsEnabled: false), so every resync reads every section';
  return undefined;
}

/** The sections a realm's spec declares whose writes Keycloak records no admin event for and that guard its
 * clients (client policies and profiles: test/e2e/change-signal.test.ts, 26.7.3 and 25.0): read in every steady
 * pass beside the newest event, so a policy turned off by hand is seen as soon as an edit elsewhere. The other such
 * section, the localization texts (one read per locale), waits for the full resync. */
export function unreportedReads(
  realm: string,
  spec: { clientPolicies?: { profiles?: unknown[]; policies?: unknown[] } },
): string[] {
  const r = `/${encodeURIComponent(realm)}`;
  const policies = spec.clientPolicies?.profiles?.length || spec.clientPolicies?.policies?.length;
  return policies ? [`${r}/client-policies/policies`, `${r}/client-policies/profiles`] : [];
}

/** The realm fields the signal needs: admin events on, kept a day, unless the spec decides them itself. An
 * observed realm keeps what `live` has (nothing is written to it: it is read every interval). */
export function changeSignalFields(
  spec: { events?: { adminEventsEnabled?: boolean }; managementPolicy?: string },
  live?: { adminEventsEnabled?: unknown; attributes?: unknown },
): { adminEventsEnabled?: unknown; attributes: Record<string, unknown> } {
  if (spec.events?.adminEventsEnabled !== undefined) return { attributes: {} };
  if (spec.managementPolicy === 'Observe') {
    const kept = (live?.attributes as Record<string, unknown> | undefined)?.[adminEventsExpirationAttribute];
    return {
      adminEventsEnabled: live?.adminEventsEnabled,
      attributes: kept === undefined ? {} : { [adminEventsExpirationAttribute]: kept },
    };
  }
  return {
    adminEventsEnabled: true,
    attributes: { [adminEventsExpirationAttribute]: String(adminEventsExpirationSeconds) },
  };
}

/** A digest of what a consumer was asked for (resource, Secrets, server): secrets never stay in memory. */
export const fingerprint = (value: unknown) =>
  createHash('sha256')
    .update(JSON.stringify(value, (_, v) => (v instanceof Map ? [...v.entries()] : v)))
    .digest('base64url');

type AdminEvent = {
  id?: string;
  time?: number;
  operationType?: string;
  resourcePath?: string;
  authDetails?: { userId?: string };
};
/** An event as a consumer sees it: its key, and whether the operator's own hand made it and no other consumer's
 * sections can have changed with it (not a DELETE: a scope deleted unlinks it from clients, a client role deleted
 * leaves realm roles' composites). */
type Mark = { key: string; ownWrite: boolean };
/** The realm's newest events, newest first; `complete`: all of them (fewer than were asked for). */
type Seen = { marks: Mark[]; complete: boolean; readAt: number };
type Clean<T> = { realm: string; event: string; digest: string; fingerprint: string; until: number; memo: T };

/** What a check found: `memo` (what the consumer kept of its clean sync) when nothing changed, else the cursor
 * to settle with after a clean full read (undefined: it could not be read). */
export type Check<T> = { unchanged: true; memo: T } | { unchanged: false; cursor?: string };

/** The cursor a realm its create call made whole shows until someone other than the operator writes to it: no
 * admin event (Keycloak's import records none: test/e2e/change-signal.test.ts), so its next resync reads
 * everything only if an event by someone else came. Undefined when the realm declares sections read beside the
 * event (client policies: their answers are not known before they are read). */
export function createdCursor(baseUrl: string, realm: string, unreported: readonly string[]) {
  return unreported.length ? undefined : JSON.stringify([`${baseUrl} ${realm}`, 'none', '']);
}

/** How a consumer checks: `reads` (the realm's own resync) reads the newest event every time, and its reads serve
 * the realm's other consumers (its clients); `unreported`: paths read too, their answers part of the cursor
 * (unreportedReads). */
export type CheckOptions = { readonly reads?: boolean; readonly unreported?: readonly string[] };

export type ChangeDetection = {
  check<T>(
    admin: AdminClient,
    ns: string,
    realm: string,
    consumer: string,
    fp: string,
    options?: CheckOptions,
  ): Promise<Check<T>>;
  /** Remembers a clean full read (no writes) at `cursor`; `validMs` bounds it (a rotation, a federation check). */
  settle<T>(consumer: string, fp: string, cursor: string | undefined, memo: T, validMs?: number): void;
  /** Forgets a consumer (deleted, or a pass that wrote or failed): its next pass reads everything. */
  forget(consumer: string): void;
};

/** How many events are read to see past the operator's own writes to the one a consumer remembers. */
const eventWindow = 50;

/** The user ids of the operator's identities (each token's subject), bounded: one per realm and master. */
export function ownSubjects(bound = 2 * realmClientBound) {
  const ids = new Set<string>();
  return {
    add(id: string) {
      ids.delete(id);
      ids.add(id);
      if (ids.size > bound) ids.delete(ids.values().next().value as string);
    },
    has: (id: string | undefined) => id !== undefined && ids.has(id),
  };
}

/** Whether `event` is reached from the newest through the operator's own writes only ('none': no event at all). */
function reachable(seen: Seen, event: string) {
  for (const m of seen.marks) {
    if (m.key === event) return true;
    if (!m.ownWrite) return false;
  }
  return seen.complete && event === 'none';
}

/**
 * The realm's resync reads the newest event each time (its requeue is never later than the drift interval), so an
 * edit anywhere in the realm is seen within one interval; when the event moved, the realm's other remembered
 * consumers are woken (`wake`) and read everything at once. They use the realm's last read while it is at most an
 * interval old and read it themselves otherwise (the realm failing or not resynced). The operator's own writes
 * (`own`: its identities' user ids) do not count as changes for the consumers that did not make them: the writer
 * forgot itself and reads once more. `fullResyncPeriodMs`: how long a clean full read stands.
 */
export function changeDetection(o: {
  clock: Clock;
  driftIntervalMs: number;
  fullResyncPeriodMs: number;
  own?: (userId: string | undefined) => boolean;
  /** Runs the consumer (`<kind> <namespace>/<name>`) now. */
  wake?: (consumer: string) => void;
}): ChangeDetection {
  const seen = new Map<string, Seen>();
  const clean = new Map<string, Clean<unknown>>();
  const mark = (e: AdminEvent): Mark => ({
    key: JSON.stringify([e.id, e.time, e.operationType, e.resourcePath]),
    ownWrite: e.operationType !== 'DELETE' && (o.own?.(e.authDetails?.userId) ?? false),
  });

  async function events(admin: AdminClient, ns: string, realm: string, max: number) {
    const path = `/${encodeURIComponent(realm)}/admin-events?first=0&max=${max}`;
    const res = await admin.call<AdminEvent[]>(ns, 'GET', path).catch(() => undefined);
    return res?.status === 200 && Array.isArray(res.body) ? res.body.map(mark) : undefined;
  }

  async function newest(admin: AdminClient, ns: string, realm: string, reader: string, reads: boolean) {
    const key = `${admin.baseUrl} ${realm}`;
    const now = o.clock.now();
    const last = seen.get(key);
    if (!reads && last && now - last.readAt <= o.driftIntervalMs) return last;
    let marks = await events(admin, ns, realm, 1);
    const top = marks?.[0];
    let complete = marks?.length === 0;
    if (top && last?.marks[0]?.key === top.key) ({ marks, complete } = last);
    // Only the operator's own write on top: the events under it tell whether anyone else wrote meanwhile.
    else if (top?.ownWrite) {
      marks = await events(admin, ns, realm, eventWindow);
      complete = (marks?.length ?? eventWindow) < eventWindow;
    }
    if (!marks) return void seen.delete(key);
    const read: Seen = { marks, complete, readAt: now };
    seen.set(key, read);
    if (last && last.marks[0]?.key !== marks[0]?.key)
      for (const [consumer, c] of clean)
        if (consumer !== reader && c.realm === key && !reachable(read, c.event)) o.wake?.(consumer);
    return read;
  }

  /** The realm's events and a digest of the unreported sections' answers, undefined when something could not be
   * read. */
  async function cursorOf(
    admin: AdminClient,
    ns: string,
    realm: string,
    consumer: string,
    options: CheckOptions,
  ) {
    const events = await newest(admin, ns, realm, consumer, options.reads ?? false);
    if (events === undefined) return undefined;
    const answers: unknown[] = [];
    for (const path of options.unreported ?? []) {
      const res = await admin.call(ns, 'GET', path).catch(() => undefined);
      if (res?.status !== 200) return undefined;
      answers.push(res.body);
    }
    const digest = answers.length ? fingerprint(canonicalJson(answers)) : '';
    return { realm: `${admin.baseUrl} ${realm}`, events, event: events.marks[0]?.key ?? 'none', digest };
  }

  return {
    async check<T>(
      admin: AdminClient,
      ns: string,
      realm: string,
      consumer: string,
      fp: string,
      options = {},
    ): Promise<Check<T>> {
      const now = await cursorOf(admin, ns, realm, consumer, options);
      const c = clean.get(consumer);
      if (
        c &&
        now &&
        c.realm === now.realm &&
        c.digest === now.digest &&
        c.fingerprint === fp &&
        o.clock.now() < c.until &&
        reachable(now.events, c.event)
      ) {
        c.event = now.event;
        return { unchanged: true, memo: c.memo as T };
      }
      return { unchanged: false, cursor: now && JSON.stringify([now.realm, now.event, now.digest]) };
    },
    settle(consumer, fp, cursor, memo, validMs) {
      if (cursor === undefined) return void clean.delete(consumer);
      const [realm, event, digest] = JSON.parse(cursor) as [string, string, string];
      const period = Math.min(o.fullResyncPeriodMs, validMs ?? Number.POSITIVE_INFINITY);
      clean.set(consumer, { realm, event, digest, fingerprint: fp, until: o.clock.now() + period, memo });
    },
    forget: (consumer) => void clean.delete(consumer),
  };
}
