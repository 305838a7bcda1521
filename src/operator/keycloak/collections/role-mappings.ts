// Role mappings as managed collections: the realm roles of a group, and the realm and client roles of a client's
// service account. A mapping has nowhere to carry an owner, so the parent (the group, the client) records the
// mappings it manages in a ledger attribute; Keycloak's own mappings (default-roles-*) are never removed.
import { RealmforgeError } from '../../../core/errors.ts';
import type { AdminClient } from '../admin-client.ts';
import type { Collection, Item } from './collection.ts';

const enc = encodeURIComponent;

/** The group attribute listing the realm roles the operator mapped to it. */
export const groupRolesLedger = 'realmforge.dev/managed-realm-roles';
/** The group attribute listing the client roles the operator mapped to it (`client/<clientId>/<role>` keys). */
export const groupClientRolesLedger = 'realmforge.dev/managed-client-roles';
/** The client attribute listing the roles the operator mapped to its service account. */
export const serviceAccountRolesLedger = 'realmforge.dev/managed-service-account-roles';

/** Looks a role up by name (a mapping is posted with the role's id); a missing role names the field. */
export function resolveRole(rolesPath: string, field: string, what: string) {
  return async (admin: AdminClient, namespace: string, desired: Item): Promise<Item> => {
    const name = String(desired.name);
    const res = await admin.call<Item>(namespace, 'GET', `${rolesPath}/${enc(name)}`);
    if (res.status === 404)
      throw new RealmforgeError('validation', `${field} names ${what} role "${name}", which does not exist`);
    return res.body;
  };
}

/** The realm roles mapped to a group (by id, `groupPath` for messages) of `realm`; keys are role names. */
export function groupRealmRoles(realm: string, groupId: string, groupPath: string): Collection {
  const path = `/${enc(realm)}/groups/${enc(groupId)}/role-mappings/realm`;
  const field = `spec.groups[${groupPath}].realmRoles`;
  return {
    noun: `realm role mapping of group ${groupPath}`,
    field,
    listPath: path,
    key: (r) => String(r.name),
    compared: { name: '' },
    write: { mode: 'batch', path },
    resolve: resolveRole(`/${enc(realm)}/roles`, field, 'realm'),
  };
}

/** The roles of client `clientId` (internal id `clientUuid`) mapped to a group; keys as the group's ledger. */
export function groupClientRoles(
  realm: string,
  groupId: string,
  groupPath: string,
  clientId: string,
  clientUuid: string,
): Collection {
  return clientRoleMappings(realm, `/${enc(realm)}/groups/${enc(groupId)}`, clientId, clientUuid, {
    noun: `${clientId} role mapping of group ${groupPath}`,
    field: `spec.groups[${groupPath}].clientRoles[${clientId}]`,
  });
}

/** The roles of client `clientId` (internal id `clientUuid`) mapped to a group or user at `owner`, keyed as ledgers. */
function clientRoleMappings(
  realm: string,
  owner: string,
  clientId: string,
  clientUuid: string,
  names: { noun: string; field: string },
): Collection {
  const path = `${owner}/role-mappings/clients/${enc(clientUuid)}`;
  return {
    ...names,
    listPath: path,
    key: (r) => clientMappingKey(clientId, String(r.name)),
    compared: { name: '' },
    write: { mode: 'batch', path },
    resolve: resolveRole(
      `/${enc(realm)}/clients/${enc(clientUuid)}/roles`,
      names.field,
      `${clientId} client`,
    ),
  };
}

/** Ledger keys of service-account mappings: `realm/<role>` and `client/<clientId>/<role>`, each part encoded. */
export const realmMappingKey = (role: string) => `realm/${enc(role)}`;
export const clientMappingKey = (clientId: string, role: string) => `client/${enc(clientId)}/${enc(role)}`;

/** The realm roles of a service-account user. */
export function userRealmRoles(realm: string, userId: string): Collection {
  const path = `/${enc(realm)}/users/${enc(userId)}/role-mappings/realm`;
  return {
    noun: 'service-account realm role',
    field: 'spec.serviceAccount.realmRoles',
    listPath: path,
    key: (r) => realmMappingKey(String(r.name)),
    compared: { name: '' },
    write: { mode: 'batch', path },
    resolve: resolveRole(`/${enc(realm)}/roles`, 'spec.serviceAccount.realmRoles', 'realm'),
  };
}

/** The roles of client `clientId` (internal id `clientUuid`) held by a service-account user. */
export function userClientRoles(
  realm: string,
  userId: string,
  clientId: string,
  clientUuid: string,
): Collection {
  return clientRoleMappings(realm, `/${enc(realm)}/users/${enc(userId)}`, clientId, clientUuid, {
    noun: `service-account ${clientId} role`,
    field: `spec.serviceAccount.clientRoles[${clientId}]`,
  });
}
