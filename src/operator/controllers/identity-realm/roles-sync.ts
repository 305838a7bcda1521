// A realm's roles in full: its roles (owner marker), the composites of each (a role the operator owns is kept equal
// to its declared composites: one added by hand is removed), and the roles it adds to the realm's default roles
// (the composite default-roles-<realm>), owned by a ledger in the realm's attributes so Keycloak's own defaults and
// roles added by hand stay. A steady resync reads the roles when declared (now or before), a role's composites
// only when it is composite or declares composites, and the default roles only when declared (now or before).
import type { IdentityRealm } from '../../../../generated/types/crds/identityrealm.ts';
import { RealmforgeError } from '../../../core/errors.ts';
import type { AdminClient } from '../../keycloak/admin-client.ts';
import { type Item, ledger, type Marker, syncCollection } from '../../keycloak/collections/collection.ts';
import {
  clientIdsOf,
  lookUpClients,
  type RoleRefs,
  roleComposites,
  roleRefItems,
} from '../../keycloak/collections/role-composites.ts';
import { clientMappingKey, realmMappingKey } from '../../keycloak/collections/role-mappings.ts';
import { realmRoles, roleItem } from '../../keycloak/collections/roles.ts';

/** The realm attribute listing the default roles the operator added (ledger keys, comma-separated). */
export const defaultRolesLedger = 'realmforge.dev/managed-default-roles';

/** The ledger keys of role references (`realm/<role>`, `client/<clientId>/<role>`), sorted. */
export const roleRefKeys = (refs: RoleRefs | undefined) =>
  [
    ...(refs?.realm ?? []).map(realmMappingKey),
    ...Object.entries(refs?.client ?? {}).flatMap(([c, names]) => names.map((n) => clientMappingKey(c, n))),
  ].sort();

/** The realm attributes recording the default roles the spec adds (none: no attribute). */
export function defaultRolesAttributes(spec: IdentityRealm['spec']): Record<string, string> {
  const keys = roleRefKeys(spec.defaultRoles);
  return keys.length ? { [defaultRolesLedger]: keys.join(',') } : {};
}

/** The clientIds named by ledger keys (`client/<clientId>/<role>`). */
export const ledgerClientIds = (keys: Iterable<string>) =>
  [...keys].filter((k) => k.startsWith('client/')).map((k) => decodeURIComponent(k.split('/')[1] ?? ''));

/** Roles and their composites; `clients` (clientId -> internal id) is shared by the sync's lookups. */
export async function syncRoles(
  admin: AdminClient,
  ns: string,
  realm: string,
  spec: IdentityRealm['spec'],
  marker: Marker,
  declaredBefore: boolean,
  clients: Map<string, string>,
): Promise<string[]> {
  const collection = realmRoles(realm);
  const desired = (spec.roles ?? []).map((r) => marker.mark(roleItem(r)));
  const result = await syncCollection(admin, ns, collection, desired, marker, { declaredBefore });
  const writes = [...result.writes];
  const live = result.created
    ? ((await admin.call<Item[]>(ns, 'GET', collection.listPath)).body ?? [])
    : result.live;
  for (const role of spec.roles ?? []) {
    const have = live.find((r) => r.name === role.name);
    const declares = roleRefKeys(role.composites).length > 0;
    if (!have?.id || (!declares && !have.composite)) continue;
    await lookUpClients(admin, ns, realm, clientIdsOf(role.composites), clients);
    const field = `spec.roles[${role.name}].composites`;
    const composites = roleComposites(
      realm,
      String(have.id),
      { noun: `composite of role ${role.name}`, field },
      clients,
    );
    const current = (await admin.call<Item[]>(ns, 'GET', composites.listPath)).body ?? [];
    // The operator's role is the spec's: every composite it has is ours to keep equal.
    const all = { by: 'ledger' as const, managed: new Set(current.map((c) => composites.key(c))) };
    const items = roleRefItems(role.composites, clients, field);
    writes.push(...(await syncCollection(admin, ns, composites, items, all, { live: current })).writes);
  }
  return writes;
}

/** The roles the spec adds to the realm's default roles; `live` is the realm as read before this sync's update. */
export async function syncDefaultRoles(
  admin: AdminClient,
  ns: string,
  realm: string,
  spec: IdentityRealm['spec'],
  live: Item,
  clients: Map<string, string>,
): Promise<string[]> {
  const owned = ledger(live.attributes as Record<string, unknown>, defaultRolesLedger);
  const declared = spec.defaultRoles;
  if (!roleRefKeys(declared).length && !owned.managed.size) return [];
  const roleId = (live.defaultRole as Item | undefined)?.id;
  if (!roleId)
    throw new RealmforgeError(
      'validation',
      `spec.defaultRoles: Keycloak did not say which role holds realm ${realm}'s default roles`,
    );
  await lookUpClients(
    admin,
    ns,
    realm,
    [...clientIdsOf(declared), ...ledgerClientIds(owned.managed)],
    clients,
  );
  const field = 'spec.defaultRoles';
  const composites = roleComposites(realm, String(roleId), { noun: 'default role', field }, clients);
  const items = roleRefItems(declared, clients, field);
  return (await syncCollection(admin, ns, composites, items, owned)).writes;
}
