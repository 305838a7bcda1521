// Roles as managed collections: a realm's roles and a client's roles. The realm's or client's record lists the roles
// the operator made (section-ownership.ts), so Keycloak's own roles (offline_access, default-roles-*) and hand-made
// ones are never touched.
// A realm role's composites are a collection of their own (role-composites.ts), synced with the realm's roles.
import type ClientRepresentation from '@keycloak/keycloak-admin-client/lib/defs/clientRepresentation.js';
import type { IdentityRealm } from '../../../../generated/types/crds/identityrealm.ts';
import type { AdminClient } from '../admin-client.ts';
import { clientFields } from './client-fields.ts';
import { type Collection, type Item, syncCollection } from './collection.ts';
import { declaredBefore } from './managed-fields.ts';
import { clientIdsOf, lookUpClients, roleComposites, roleRefItems, roleRefKeys } from './role-composites.ts';
import { type SectionOwner, sectionLedgers, sectionOwnership } from './section-ownership.ts';

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

/** Makes the roles of client `live` equal to `desired`; the roles its record lists and the spec no longer declares
 * are taken back. Returns the writes. */
export async function syncClientRoles(
  admin: AdminClient,
  ns: string,
  realm: string,
  live: ClientRepresentation,
  desired: Parameters<typeof roleItem>[0][],
  owner: SectionOwner,
): Promise<string[]> {
  const roles = clientRoles(realm, live.id ?? '');
  const { ownership, options } = sectionOwnership(admin, ns, owner, sectionLedgers.roles);
  const before = declaredBefore(live as Item, clientFields, 'roles');
  const items = desired.map(roleItem);
  return (await syncCollection(admin, ns, roles, items, ownership, { ...options, declaredBefore: before }))
    .writes;
}

/** A realm's roles and the composites of each (a role the operator owns is kept equal to its declared
 * composites: one added by hand is removed). A steady resync reads the roles when declared (now or before), and a
 * role's composites only when it is composite or declares composites. `clients` (clientId -> internal id) is
 * shared by the sync's lookups. */
export async function syncRoles(
  admin: AdminClient,
  ns: string,
  realm: string,
  spec: IdentityRealm['spec'],
  owner: SectionOwner,
  declaredBefore: boolean,
  clients: Map<string, string>,
): Promise<string[]> {
  const collection = realmRoles(realm);
  const { ownership, options } = sectionOwnership(admin, ns, owner, sectionLedgers.roles);
  const desired = (spec.roles ?? []).map(roleItem);
  const result = await syncCollection(admin, ns, collection, desired, ownership, {
    ...options,
    declaredBefore,
  });
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
    const all = { managed: new Set(current.map((c) => composites.key(c))) };
    const items = roleRefItems(role.composites, clients, field);
    writes.push(...(await syncCollection(admin, ns, composites, items, all, { live: current })).writes);
  }
  return writes;
}
