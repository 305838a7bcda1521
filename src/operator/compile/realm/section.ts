// What every realm section file exports: the spec part it compiles into RealmRepresentation fields, and Keycloak's
// default of each of those fields (what a new realm has), so a field the spec stops setting can be reset to it.
import type { IdentityRealm } from '../../../../generated/types/crds/identityrealm.ts';

export type RealmSpec = IdentityRealm['spec'];
export type Fields = Record<string, unknown>;

/** Drops undefined values, so a field the spec leaves out is absent (Keycloak's own value is kept). */
export const defined = (fields: Fields): Fields =>
  Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));

/** Prefixes every key of a spec object (`{ digits: 6 }` -> `{ otpPolicyDigits: 6 }`). */
export function prefixed(prefix: string, section: object | undefined): Fields {
  if (!section) return {};
  return Object.fromEntries(
    Object.entries(section).map(([k, v]) => [`${prefix}${k[0]?.toUpperCase()}${k.slice(1)}`, v]),
  );
}
