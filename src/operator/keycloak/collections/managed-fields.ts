// Scalar settings of one Keycloak object (a realm, a client) under the same rule as collections: the operator
// records which fields it manages (an attribute on the object: the last-applied field list) and, when the spec
// stops setting a field, resets it to Keycloak's default instead of leaving the old value forever. Fields are the
// representation's top-level keys, and one level into the maps named (`attributes/pkce.code.challenge.method`).
// A map entry is reset by sending it empty (Keycloak removes empty attributes); any other field by its default.
import { RealmforgeError } from '../../../core/errors.ts';
import { canonicalJson, isSubset } from '../../runtime/desired-state.ts';
import { needsRecord, recordAttribute } from './record.ts';

/** The attribute holding the comma-separated list of fields the operator set last time. */
export const managedFieldsAttribute = 'realmforge.dev/managed-fields';

/** How one kind of object's fields are managed. */
export type FieldRules = {
  /** What the object is, for messages ("realm", "client"). */
  readonly noun: string;
  /** Keycloak's default of every top-level field the operator can set (a field without one cannot be reset). */
  readonly defaults: Readonly<Record<string, unknown>>;
  /** Maps managed entry by entry (`attributes`, `smtpServer`). */
  readonly maps: readonly string[];
  /** Arrays compared as sets (order is Keycloak's). */
  readonly sets?: readonly string[];
  /** Fields compared in a normal form (a policy string parsed), both sides passed through the function. */
  readonly normalise?: Readonly<Record<string, (value: unknown) => unknown>>;
  /** Fields Keycloak resets to its default when an update leaves them out (a policy rebuilt whole): every update
   * carries their live value unless it sets them. */
  readonly carry?: readonly string[];
  /** Entries Keycloak never returns (a password): sent, but not compared here (see the hash of the secret). */
  readonly unreadable?: readonly string[];
  /** Where the field list is kept: the object's attribute map, and whether its values are lists. */
  readonly attributes: { readonly map: string; readonly listValues: boolean };
};

/** What to send: the changed fields (for the log), the body of the update, and the field list to record (the
 * fields set, and `+name` for each collection the spec declares items of). */
export type FieldPlan = { drift: string[]; body: Record<string, unknown>; managed: string[] };

type Obj = Record<string, unknown>;
const bookkeeping = new Set([managedFieldsAttribute]);

/** Entries of the field list that name a declared collection (`+roles`), not a field. */
const collectionMark = '+';

/** Whether the field list recorded on `live` says the spec declared items of `collection` last time. */
export function declaredBefore(live: Obj | undefined, rules: FieldRules, collection: string): boolean {
  return recordedFields(live, rules).includes(`${collectionMark}${collection}`);
}

/** The flat field paths of a representation: `field`, or `map/key` for the maps the rules name. */
export function fieldPaths(rep: Obj, rules: FieldRules): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const [field, value] of Object.entries(rep)) {
    if (value === undefined) continue;
    if (rules.maps.includes(field) && value && typeof value === 'object') {
      for (const [key, entry] of Object.entries(value as Obj)) {
        if (entry !== undefined && !(field === rules.attributes.map && bookkeeping.has(key)))
          out.set(`${field}/${key}`, entry);
      }
    } else out.set(field, value);
  }
  return out;
}

/** The field list recorded on a live object. */
export function recordedFields(live: Obj | undefined, rules: FieldRules): string[] {
  const raw = (live?.[rules.attributes.map] as Obj | undefined)?.[managedFieldsAttribute];
  const text = Array.isArray(raw) ? String(raw[0] ?? '') : String(raw ?? '');
  return text.split(',').filter(Boolean);
}

const sortedSet = (v: unknown) => (Array.isArray(v) ? [...v].map(String).sort() : v);

/** Whether a field's live value is the wanted one, under the rules (absent means Keycloak's default). */
export function sameField(path: string, want: unknown, live: unknown, rules: FieldRules): boolean {
  // Keycloak leaves some fields out of its answer while they hold its default (eventsExpiration).
  const have = live === undefined || live === null ? rules.defaults[path] : live;
  const normal = rules.normalise?.[path];
  if (normal) return canonicalJson(normal(want)) === canonicalJson(normal(have));
  if (rules.sets?.includes(path)) return isSubset(sortedSet(want), sortedSet(have ?? []));
  // An empty string and an absent value are the same to Keycloak (it drops empty attributes and names).
  if (want === '' && (have === undefined || have === null)) return true;
  return isSubset(want, have);
}

function put(body: Obj, path: string, value: unknown): void {
  const slash = path.indexOf('/');
  if (slash < 0) {
    body[path] = value;
    return;
  }
  const map = path.slice(0, slash);
  body[map] = { ...(body[map] as Obj | undefined), [path.slice(slash + 1)]: value };
}

function resetValue(path: string, rules: FieldRules): unknown {
  if (path.includes('/'))
    return path.startsWith(`${rules.attributes.map}/`) && rules.attributes.listValues ? [] : '';
  if (!(path in rules.defaults)) {
    throw new RealmforgeError(
      'internal',
      `no known Keycloak default for ${rules.noun} field ${path}: it cannot be reset`,
    );
  }
  return rules.defaults[path];
}

/**
 * Compares `desired` with `live` field by field and plans one update: desired fields that differ, and fields
 * recorded last time that the spec no longer sets, back at Keycloak's default. `drift` is empty when nothing
 * needs sending. The body also carries the new field list, so the update records it.
 */
export function planFields(
  desired: Obj,
  live: Obj,
  rules: FieldRules,
  collections: readonly string[] = [],
): FieldPlan {
  const want = fieldPaths(desired, rules);
  for (const name of collections) want.set(`${collectionMark}${name}`, true);
  const have = fieldPaths(live, rules);
  const drift: string[] = [];
  const body: Obj = {};
  for (const [path, value] of want) {
    if (rules.unreadable?.includes(path) || path.startsWith(collectionMark)) continue;
    if (!sameField(path, value, have.get(path), rules)) drift.push(path);
  }
  for (const path of recordedFields(live, rules)) {
    if (want.has(path) || path.startsWith(collectionMark)) continue;
    const reset = resetValue(path, rules);
    if (!sameField(path, reset, have.get(path), rules)) drift.push(path);
  }
  const managed = [...want.keys()].sort();
  const previous = recordedFields(live, rules).join(',');
  // An earlier version's object gets its ownership record (record.ts) in this update, even with nothing else to send.
  const migrate = needsRecord(live);
  if (!drift.length && previous === managed.join(',') && !migrate) return { drift, body, managed };
  if (previous !== managed.join(',')) drift.push(managedFieldsAttribute);
  if (migrate) drift.push(recordAttribute);
  for (const [field, value] of Object.entries(desired)) if (value !== undefined) body[field] = value;
  for (const path of recordedFields(live, rules))
    if (!want.has(path) && !path.startsWith(collectionMark)) put(body, path, resetValue(path, rules));
  for (const field of rules.carry ?? [])
    if (!(field in body) && live[field] !== undefined) body[field] = live[field];
  const list = managed.join(',');
  put(body, `${rules.attributes.map}/${managedFieldsAttribute}`, rules.attributes.listValues ? [list] : list);
  return { drift, body, managed };
}
