// Change detection: a steady resync reads one thing, the realm's newest admin event, instead of every section.
// Keycloak records every admin API write (console or API) in a realm with admin events on; the operator turns them
// on in the realms it manages (changeSignalFields). A consumer (a realm's or a client's reconcile) that synced
// clean remembers the newest event it saw then and the fingerprint of what it was asked for; while both are
// unchanged it reads nothing more. Anything else reads everything: a new event (a hand edit, the operator's own
// writes: the pass after a write reads once more and then settles), an event gone (expired), no memory yet (a
// restart, a leader change), a changed resource or Secret, a failed cursor read, and every full-resync period
// (edits made outside the admin API: the database, an import at boot, an upgrade). The realm's resync reads the
// event and wakes the realm's clients when it moved; between, they use its read, so a realm and its clients cost
// one read per realm resync. The few sections Keycloak records no event for are read in every pass of their realm
// (unreportedReads).
import { createHash } from 'node:crypto';
import { canonicalJson } from '../../core/canonical-json.ts';
import type { Clock } from '../../core/clock.ts';
import type { AdminClient } from './admin-client.ts';

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

/** The sections a realm's spec declares whose writes Keycloak records no admin event for (client policies and
 * profiles, the localization texts: test/e2e/change-signal.test.ts, 26.7.3 and 25.0): read in every steady pass
 * beside the newest event, so a hand edit there is seen as soon as one elsewhere. */
export function unreportedReads(
  realm: string,
  spec: {
    clientPolicies?: { profiles?: unknown[]; policies?: unknown[] };
    localization?: { messages?: Record<string, unknown> };
  },
): string[] {
  const r = `/${encodeURIComponent(realm)}`;
  const policies = spec.clientPolicies?.profiles?.length || spec.clientPolicies?.policies?.length;
  return [
    ...(policies ? [`${r}/client-policies/policies`, `${r}/client-policies/profiles`] : []),
    ...Object.keys(spec.localization?.messages ?? {})
      .sort()
      .map((locale) => `${r}/localization/${encodeURIComponent(locale)}`),
  ];
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

type AdminEvent = { id?: string; time?: number; operationType?: string; resourcePath?: string };
type Seen = { cursor: string; readAt: number };
type Clean<T> = { realm: string; event: string; fingerprint: string; cursor: string; until: number; memo: T };

/** What a check found: `memo` (what the consumer kept of its clean sync) when nothing changed, else the cursor
 * to settle with after a clean full read (undefined: it could not be read). */
export type Check<T> = { unchanged: true; memo: T } | { unchanged: false; cursor?: string };

/** Whether a cursor shows a realm no admin write has touched since its admin events were turned on. */
export const untouched = (cursor: string | undefined) =>
  cursor !== undefined && (JSON.parse(cursor) as unknown[])[1] === 'none';

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

/**
 * The realm's resync reads the newest event each time (its requeue is never later than the drift interval), so an
 * edit anywhere in the realm is seen within one interval; when the event moved, the realm's other remembered
 * consumers are woken (`wake`) and read everything at once. They use the realm's last read while it is at most an
 * interval old and read it themselves otherwise (the realm failing or not resynced). `fullResyncPeriodMs`: how long
 * a clean full read stands.
 */
export function changeDetection(o: {
  clock: Clock;
  driftIntervalMs: number;
  fullResyncPeriodMs: number;
  /** Runs the consumer (`<kind> <namespace>/<name>`) now. */
  wake?: (consumer: string) => void;
}): ChangeDetection {
  const seen = new Map<string, Seen>();
  const clean = new Map<string, Clean<unknown>>();

  async function newest(admin: AdminClient, ns: string, realm: string, reader: string, reads: boolean) {
    const key = `${admin.baseUrl} ${realm}`;
    const now = o.clock.now();
    const last = seen.get(key);
    if (!reads && last && now - last.readAt <= o.driftIntervalMs) return last.cursor;
    const path = `/${encodeURIComponent(realm)}/admin-events?first=0&max=1`;
    const res = await admin.call<AdminEvent[]>(ns, 'GET', path).catch(() => undefined);
    if (res?.status !== 200 || !Array.isArray(res.body)) {
      seen.delete(key);
      return undefined;
    }
    const e = res.body[0];
    const cursor = e ? JSON.stringify([e.id, e.time, e.operationType, e.resourcePath]) : 'none';
    seen.set(key, { cursor, readAt: now });
    if (last && last.cursor !== cursor)
      for (const [consumer, c] of clean)
        if (consumer !== reader && c.realm === key && c.event !== cursor) o.wake?.(consumer);
    return cursor;
  }

  /** The cursor (the realm, its newest event and a digest of the unreported sections' answers), undefined when
   * something could not be read. */
  async function cursorOf(
    admin: AdminClient,
    ns: string,
    realm: string,
    consumer: string,
    options: CheckOptions,
  ) {
    const event = await newest(admin, ns, realm, consumer, options.reads ?? false);
    if (event === undefined) return undefined;
    const answers: unknown[] = [];
    for (const path of options.unreported ?? []) {
      const res = await admin.call(ns, 'GET', path).catch(() => undefined);
      if (res?.status !== 200) return undefined;
      answers.push(res.body);
    }
    const digest = answers.length ? fingerprint(canonicalJson(answers)) : '';
    return JSON.stringify([`${admin.baseUrl} ${realm}`, event, digest]);
  }

  return {
    async check<T>(
      admin: AdminClient,
      ns: string,
      realm: string,
      consumer: string,
      fp: string,
      options = {},
    ) {
      const cursor = await cursorOf(admin, ns, realm, consumer, options);
      const c = clean.get(consumer);
      if (c && cursor !== undefined && c.cursor === cursor && c.fingerprint === fp && o.clock.now() < c.until)
        return { unchanged: true, memo: c.memo as T };
      return { unchanged: false, cursor };
    },
    settle(consumer, fp, cursor, memo, validMs) {
      if (cursor === undefined) return void clean.delete(consumer);
      const [realm, event] = JSON.parse(cursor) as [string, string];
      const period = Math.min(o.fullResyncPeriodMs, validMs ?? Number.POSITIVE_INFINITY);
      clean.set(consumer, { realm, event, fingerprint: fp, cursor, until: o.clock.now() + period, memo });
    },
    forget: (consumer) => void clean.delete(consumer),
  };
}
