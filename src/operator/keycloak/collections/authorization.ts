// A client's authorization services as four managed collections under .../clients/{id}/authz/resource-server:
// scopes, resources, policies and permissions. None of them has anywhere to carry an owner, so the client (ours)
// records the names it manages in its attributes (ledgers). Policies and permissions share one list in Keycloak
// (a permission is a policy of type resource or scope): they are read in Keycloak's export form (names, not ids)
// and written through the typed endpoints (see compile/client-authorization.ts).
import { canonicalConfig } from '../../compile/client-authorization.ts';
import type { Collection, Item } from './collection.ts';

const enc = encodeURIComponent;

/** The client attributes listing the names the operator manages, one per collection. */
export const authzLedgers = {
  scopes: 'realmforge.dev/authz-scopes',
  resources: 'realmforge.dev/authz-resources',
  policies: 'realmforge.dev/authz-policies',
  permissions: 'realmforge.dev/authz-permissions',
} as const;

/** The types that are permissions rather than policies. */
export const permissionTypes = new Set(['resource', 'scope']);

/** The resource server of the client `uuid` in `realm`. */
export const resourceServerPath = (realm: string, uuid: string) =>
  `/${enc(realm)}/clients/${enc(uuid)}/authz/resource-server`;

/** The authorization scopes of a client. */
export function authzScopes(realm: string, uuid: string): Collection {
  const base = `${resourceServerPath(realm, uuid)}/scope`;
  return {
    noun: 'authorization scope',
    field: 'spec.authorization.scopes',
    listPath: `${base}?first=0&max=10000`,
    key: (s) => String(s.name),
    compared: { name: '', displayName: '', iconUri: '' },
    write: { mode: 'each', createPath: base, itemPath: (live) => `${base}/${enc(String(live.id))}` },
  };
}

const names = (v: unknown) =>
  ((v as { name?: string }[] | undefined) ?? []).map((s) => String(s.name)).sort();

/** The authorization resources of a client (the list answer, deep, carries their scopes and attributes). */
export function authzResources(realm: string, uuid: string): Collection {
  const base = `${resourceServerPath(realm, uuid)}/resource`;
  return {
    noun: 'authorization resource',
    field: 'spec.authorization.resources',
    listPath: `${base}?deep=true&first=0&max=10000`,
    key: (r) => String(r.name),
    compared: {
      name: '',
      displayName: '',
      type: '',
      uris: [],
      scopes: [],
      ownerManagedAccess: false,
      attributes: {},
    },
    canonical: (r) => ({ ...r, uris: [...((r.uris as string[]) ?? [])].sort(), scopes: names(r.scopes) }),
    write: { mode: 'each', createPath: base, itemPath: (live) => `${base}/${enc(String(live._id))}` },
  };
}

function policiesOf(realm: string, uuid: string, noun: string, field: string): Collection {
  const base = `${resourceServerPath(realm, uuid)}/policy`;
  return {
    noun,
    field,
    listPath: `${base}?first=0&max=10000`,
    key: (p) => String(p.name),
    compared: {
      name: '',
      description: '',
      type: '',
      logic: 'POSITIVE',
      decisionStrategy: 'UNANIMOUS',
      config: {},
    },
    canonical: (p) => ({ ...p, config: canonicalConfig(String(p.type), p.config as Item | undefined) }),
    send: (desired, live) => ({ ...(desired.send as Item), ...(live ? { id: live.id } : {}) }),
    write: {
      mode: 'each',
      createPath: (item) => `${base}/${enc(String(item.type))}`,
      itemPath: (live) => `${base}/${enc(String(live.type))}/${enc(String(live.id))}`,
    },
  };
}

/** The authorization policies of a client (every type but resource and scope). */
export const authzPolicies = (realm: string, uuid: string) =>
  policiesOf(realm, uuid, 'authorization policy', 'spec.authorization.policies');

/** The authorization permissions of a client (policies of type resource or scope). */
export const authzPermissions = (realm: string, uuid: string) =>
  policiesOf(realm, uuid, 'authorization permission', 'spec.authorization.permissions');

/** Whether `item` is one of the three objects Keycloak creates when authorization services are switched on,
 * as Keycloak made it (by name and Keycloak's own description or type): the operator removes those. */
export function isKeycloakDefault(
  kind: 'resources' | 'policies' | 'permissions',
  item: Item,
  clientId: string,
): boolean {
  if (kind === 'resources')
    return item.name === 'Default Resource' && item.type === `urn:${clientId}:resources:default`;
  if (kind === 'policies')
    return (
      item.name === 'Default Policy' &&
      item.description === 'A policy that grants access only for users within this realm'
    );
  return (
    item.name === 'Default Permission' &&
    item.description === 'A permission that applies to the default resource type'
  );
}
