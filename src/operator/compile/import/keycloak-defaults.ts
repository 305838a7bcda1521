// Keycloak's default realm, as its partial export shows a realm created with a name only (ids dropped, the realm's
// name replaced by {realm}): what the importer leaves out, so the YAML says only what someone chose. Data taken
// from bare realms of Keycloak 26.7 and 25.0 (test/e2e/import.test.ts checks it against the real Keycloak).

import { type ImportContext, ignoredKeys, isObject, type Json, same } from './context.ts';
import realm25 from './keycloak-default-realm-25.json' with { type: 'json' };
import realm26 from './keycloak-default-realm-26.json' with { type: 'json' };

/** Where a realm's own name appears in Keycloak's built-in objects. */
const realmNamed = (realm: string) =>
  new RegExp(
    `(/realms/|/admin/|default-roles-)${realm.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?=/|$|")`,
    'g',
  );

/** A copy of an export without ids, the realm's name as {realm}: the form compared with the defaults. */
export function normalise(value: unknown, realm: string): unknown {
  const named = realmNamed(realm);
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return v.replace(named, '$1{realm}');
    if (Array.isArray(v)) return v.map(walk);
    if (!isObject(v)) return v;
    return Object.fromEntries(
      Object.entries(v)
        .filter(([k]) => !ignoredKeys.has(k))
        .map(([k, x]) => [k, walk(x)]),
    );
  };
  return walk(value);
}

/** The default realm of Keycloak `major` (25 or 26; a later one is taken as 26). */
export const keycloakDefaultRealm = (major: number): Json => (major < 26 ? realm25 : realm26) as Json;

/** Notes one of Keycloak's built-in objects that differs from a new realm's (the CRDs declare only what the
 * operator creates, so such a change cannot be expressed). */
export function noteChanged(ctx: ImportContext, path: string, item: unknown, builtIn: unknown): void {
  if (!same(normalise(item, ctx.realm), builtIn))
    ctx.note(
      path,
      "Keycloak's built-in object differs from a new realm's: the CRDs declare only what the operator creates",
    );
}
