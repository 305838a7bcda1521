// Ledgers of collections synced after their parent's own update (a realm's message overrides, client profiles and
// policies and user profile, which may name client scopes and roles made after it; a client's protocol mappers and
// authorization objects). Such a collection reads its ledger from the parent as it was before the update, to know
// what it may delete; if the update already dropped a name and the collection's write then fails, the next
// reconcile would take the leftover for hand-made and keep it forever. So the update holds each changing late
// ledger at its live value, and the plan's own body, ledgers included, is sent again once the collections are
// synced (`recordLateLedgers`). Steady state: nothing held, nothing sent.
import type { AdminClient } from '../admin-client.ts';
import { type FieldPlan, managedFieldsAttribute } from './managed-fields.ts';
import { openRecord, recordAttribute, sealRecord } from './record.ts';

type Obj = Record<string, unknown>;

/** The update to send first (the ledgers among `keys` that change, held at their live values; its drift without
 * them, so it is sent only when something else changes too), and the ledgers it held. What can wait (`deferrable`:
 * ledgers of sections synced before this update; the field list; an earlier version's object getting its record)
 * goes with the first update when it is sent anyway, else with the later write, so that either is one write. */
export function holdLateLedgers(
  plan: FieldPlan,
  live: Obj,
  keys: readonly string[],
  deferrable: readonly string[] = [],
): { first: FieldPlan; held: string[] } {
  const want = (plan.body.attributes ?? {}) as Obj;
  const have = (live.attributes ?? {}) as Obj;
  const text = (v: unknown) => String(v ?? '');
  const changed = (list: readonly string[]) =>
    list.filter((k) => k in want && text(want[k]) !== text(have[k]));
  const late = changed(keys);
  const waits = new Set([...changed(deferrable), ...late].map((k) => `attributes/${k}`));
  const rest = plan.drift.filter(
    (p) => !waits.has(p) && p !== managedFieldsAttribute && p !== recordAttribute,
  );
  const held = rest.length ? late : [...late, ...changed(deferrable)];
  if (!late.length) return { first: plan, held: [] };
  const attributes = { ...want, ...Object.fromEntries(held.map((k) => [k, text(have[k])])) };
  const drift = rest.length ? plan.drift.filter((p) => !held.some((k) => p === `attributes/${k}`)) : [];
  return { first: { ...plan, drift, body: { ...plan.body, attributes } }, held };
}

/** Sends `body` (the plan's whole body) to `path` again, the held ledgers at their new values, once their
 * collections are synced. */
export async function recordLateLedgers(
  admin: AdminClient,
  ns: string,
  path: string,
  body: Obj,
  held: readonly string[],
): Promise<string[]> {
  if (!held.length) return [];
  await admin.call(ns, 'PUT', path, body);
  return [`record ${held.join(', ')}`];
}

/** A claim (collection.ts SyncOptions.claim) in the ledger attribute `attribute` of the realm or client at `path`:
 * the keys (turned into ledger entries by `entry`) are added to what it records now, in one update of it as just
 * read. Only sent before a create, so a steady resync never sends it. */
export function ledgerClaim(
  admin: AdminClient,
  ns: string,
  path: string,
  attribute: string,
  entry: (key: string) => string = (k) => k,
) {
  return async (keys: string[]) => {
    const read = (await admin.call<Obj>(ns, 'GET', path)).body ?? {};
    const realm = openRecord(read);
    const attributes = (realm.attributes ?? {}) as Obj;
    const raw = attributes[attribute];
    const now = (Array.isArray(raw) ? String(raw[0] ?? '') : String(raw ?? '')).split(',').filter(Boolean);
    const union = [...new Set([...now, ...keys.map(entry)])].sort().join(',');
    const body = { ...realm, attributes: { ...attributes, [attribute]: union } };
    await admin.call(ns, 'PUT', path, sealRecord(body, read));
  };
}
