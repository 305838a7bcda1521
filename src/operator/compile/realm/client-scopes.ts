// Realm-level client scopes: the scopes themselves and their mappers are collections (keycloak/collections/
// client-scopes.ts); what the realm representation carries is the ledger of the realm default and optional scope
// links the spec declares (realm attributes), written with the realm's own fields.
import type { Fields, RealmSpec } from './section.ts';

/** The realm attributes listing the default and optional client scopes the operator linked. */
export const scopeLinkLedgers = {
  default: 'realmforge.dev/managed-default-client-scopes',
  optional: 'realmforge.dev/managed-optional-client-scopes',
} as const;

/** The ledger attributes of the declared links (absent when none: the managed-field rule empties a dropped one). */
export function scopeLinkAttributes(spec: RealmSpec): Fields {
  const out: Fields = {};
  for (const kind of ['default', 'optional'] as const) {
    const names = [...(spec.realmDefaultClientScopes?.[kind] ?? [])].sort();
    if (names.length) out[scopeLinkLedgers[kind]] = names.join(',');
  }
  return out;
}
