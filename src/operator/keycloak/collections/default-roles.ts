// The roles a realm's spec adds to its default roles (the composite default-roles-<realm>, see
// role-composites.ts), owned by a ledger in the realm's attributes so Keycloak's own defaults and roles added by
// hand stay. A steady resync reads the default roles only when declared (now or before).
import type { IdentityRealm } from '../../../../generated/types/crds/identityrealm.ts';
import { RealmforgeError } from '../../../core/errors.ts';
import type { AdminClient } from '../admin-client.ts';
import { type Item, ledger, syncCollection } from './collection.ts';
import {
  clientIdsOf,
  ledgerClientIds,
  lookUpClients,
  roleComposites,
  roleRefItems,
  roleRefKeys,
} from './role-composites.ts';

/** The realm attribute listing the default roles the operator added (ledger keys, comma-separated). */
export const defaultRolesLedger = 'realmforge.dev/managed-default-roles';

/** The realm attributes recording the default roles the spec adds (none: no attribute). */
export function defaultRolesAttributes(spec: IdentityRealm['spec']): Record<string, string> {
  const keys = roleRefKeys(spec.defaultRoles);
  return keys.length ? { [defaultRolesLedger]: keys.join(',') } : {};
}

/** The roles the spec adds to the realm's default roles; `live` is the realm as read before this sync's update;
 * `clients` (clientId -> internal id) is shared by the sync's lookups. */
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
  return (await syncCollection(admin, ns, composites, items, owned, { adopt: spec.adoptExisting })).writes;
}
