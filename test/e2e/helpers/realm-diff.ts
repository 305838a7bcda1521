// Two realms' partial exports compared as a person would: ids and the realm's own name left out, the operator's
// bookkeeping (realmforge.dev/ attributes: the ownership record of the realm and its clients, the ledgers of
// a scope's mappers and a group's role mappings, an earlier version's marks) and its own identity client in the
// realm removed, lists keyed by their natural key and lists of names compared as sets. Each difference is one line: its JSON path and both values.
import { isObject, type Json } from '../../../src/operator/compile/import/context.ts';
import { withoutMarks, withoutOperatorIdentity } from '../../../src/operator/compile/import/export-shape.ts';
import { normalise } from '../../../src/operator/compile/import/keycloak-defaults.ts';
import {
  adminEventsExpirationAttribute,
  adminEventsExpirationSeconds,
} from '../../../src/operator/keycloak/change-detection.ts';

/** Natural keys of Keycloak's listed objects, tried in order. */
const keys = ['clientId', 'alias', 'name', 'username', 'clientScope', 'client'];

/** When Keycloak made an object: never the same in two realms. */
const keycloakMoments = ['createdTimestamp', 'client.secret.creation.time'];

/** The export without the operator's record and marks (export-shape.ts's withoutMarks), ids, creation times or the
 * realm's name. */
export function comparable(exp: unknown, realm: string): Json {
  const strip = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(strip);
    if (!isObject(v)) return v;
    return Object.fromEntries(
      Object.entries(v)
        .filter(([k]) => !keycloakMoments.includes(k))
        .map(([k, x]) => [k, strip(x)]),
    );
  };
  const out = strip(withoutMarks(normalise(withoutOperatorIdentity(exp as Json), realm))) as Json;
  delete out.realm;
  return out;
}

const keyOf = (item: Json) => {
  const k = keys.find((name) => typeof item[name] === 'string');
  return k ? String(item[k]) + (item.subType ? ` (${String(item.subType)})` : '') : undefined;
};

/** Every difference between `a` and `b`, by JSON path. */
export function realmDiff(a: unknown, b: unknown, path = ''): string[] {
  if (Array.isArray(a) && Array.isArray(b)) {
    if ([...a, ...b].every((x) => !isObject(x) && !Array.isArray(x))) {
      const as = a.map(String).sort();
      const bs = b.map(String).sort();
      return JSON.stringify(as) === JSON.stringify(bs)
        ? []
        : [`${path}: A ${JSON.stringify(as)} B ${JSON.stringify(bs)}`];
    }
    const objects = [...a, ...b].every(isObject) && [...a, ...b].every((x) => keyOf(x as Json) !== undefined);
    if (objects) {
      const byKey = (list: Json[]) => new Map(list.map((x) => [keyOf(x) as string, x]));
      const ma = byKey(a as Json[]);
      const mb = byKey(b as Json[]);
      return [...new Set([...ma.keys(), ...mb.keys()])]
        .sort()
        .flatMap((k) => realmDiff(ma.get(k), mb.get(k), `${path}[${k}]`));
    }
  }
  if (isObject(a) && isObject(b))
    return [...new Set([...Object.keys(a), ...Object.keys(b)])]
      .sort()
      .flatMap((k) => realmDiff(a[k], b[k], path ? `${path}.${k}` : k));
  if (JSON.stringify(a) === JSON.stringify(b)) return [];
  const show = (v: unknown) => (v === undefined ? '(absent)' : JSON.stringify(v).slice(0, 160));
  return [`${path}: A ${show(a)} B ${show(b)}`];
}

/** What managing a realm turns on besides the record and the identity: the change signal (change-detection.ts),
 * admin events kept a day, as realmDiff reports it against a realm that had admin events off. */
export const changeSignalDiff = [
  'adminEventsEnabled: A false B true',
  `attributes.${adminEventsExpirationAttribute}: A (absent) B "${adminEventsExpirationSeconds}"`,
];
