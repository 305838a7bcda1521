// Roles as managed collections: a realm's roles and a client's roles. Each role the operator creates carries the
// owner attribute, so Keycloak's own roles (offline_access, default-roles-*) and hand-made ones are never touched.
import type { Collection, Item } from './collection.ts';

const enc = encodeURIComponent;

/** A declared role as Keycloak represents it (its composites are a collection of their own). */
export function roleItem(role: {
  name: string;
  description?: string;
  attributes?: Record<string, string[]>;
}): Item {
  return {
    name: role.name,
    ...(role.description ? { description: role.description } : {}),
    ...(role.attributes ? { attributes: { ...role.attributes } } : {}),
  };
}

function roles(noun: string, field: string, base: string, realmBase: string): Collection {
  return {
    noun,
    field,
    listPath: `${base}/roles?briefRepresentation=false`,
    key: (r) => String(r.name),
    compared: { name: '', description: '', attributes: {} },
    write: {
      mode: 'each',
      createPath: `${base}/roles`,
      itemPath: (live) => `${realmBase}/roles-by-id/${enc(String(live.id))}`,
    },
  };
}

/** The roles of `realm`. */
export const realmRoles = (realm: string): Collection =>
  roles('realm role', 'spec.roles', `/${enc(realm)}`, `/${enc(realm)}`);

/** The roles of the client with internal id `uuid` in `realm`. */
export const clientRoles = (realm: string, uuid: string): Collection =>
  roles('client role', 'spec.roles', `/${enc(realm)}/clients/${enc(uuid)}`, `/${enc(realm)}`);
