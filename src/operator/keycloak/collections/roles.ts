// Roles as managed collections: a realm's roles and a client's roles. Each role the operator creates carries the
// owner attribute, so Keycloak's own roles (offline_access, default-roles-*) and hand-made ones are never touched.
import type ClientRepresentation from '@keycloak/keycloak-admin-client/lib/defs/clientRepresentation.js';
import type { AdminClient } from '../admin-client.ts';
import { clientFields } from './client-fields.ts';
import { attributeMarker, type Collection, type Item, syncCollection } from './collection.ts';
import { declaredBefore } from './managed-fields.ts';

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

/** Makes the roles of client `live` equal to `desired`, each marked as the resource `owner`'s; roles it declared
 * before (its managed-fields record) and declares no more are taken back. Returns the writes. */
export async function syncClientRoles(
  admin: AdminClient,
  ns: string,
  realm: string,
  live: ClientRepresentation,
  desired: Parameters<typeof roleItem>[0][],
  owner: string,
): Promise<string[]> {
  const roles = clientRoles(realm, live.id ?? '');
  const marker = attributeMarker(owner);
  const items = desired.map((r) => marker.mark(roleItem(r)));
  const options = { declaredBefore: declaredBefore(live as Item, clientFields, 'roles') };
  return (await syncCollection(admin, ns, roles, items, marker, options)).writes;
}
