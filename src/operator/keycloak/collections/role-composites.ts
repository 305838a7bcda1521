// The roles a composite role contains, as a managed collection: a realm role's composites, and the realm's default
// roles (the composite default-roles-<realm>). Keycloak lists them together (realm roles, and client roles with
// their client's internal id as containerId) and takes arrays of roles, by id, to add and remove. Keys are the
// ledger keys of role-mappings.ts (`realm/<role>`, `client/<clientId>/<role>`): a client role of a client the
// caller did not look up keys as `client/#<uuid>/<role>`, never declared, so it is pruned only if owned.
import { RealmforgeError } from '../../../core/errors.ts';
import type { AdminClient } from '../admin-client.ts';
import type { Collection, Item } from './collection.ts';
import { clientMappingKey, realmMappingKey, resolveRole } from './role-mappings.ts';

const enc = encodeURIComponent;

/** Role references as the spec has them: realm role names, and client role names by clientId. */
export type RoleRefs = { realm?: string[]; client?: Record<string, string[]> };

/** The clientIds a set of role references names. */
export const clientIdsOf = (refs: RoleRefs | undefined) => Object.keys(refs?.client ?? {});

/** The ledger keys of role references (`realm/<role>`, `client/<clientId>/<role>`), sorted. */
export const roleRefKeys = (refs: RoleRefs | undefined) =>
  [
    ...(refs?.realm ?? []).map(realmMappingKey),
    ...Object.entries(refs?.client ?? {}).flatMap(([c, names]) => names.map((n) => clientMappingKey(c, n))),
  ].sort();

/** The clientIds named by ledger keys (`client/<clientId>/<role>`). */
export const ledgerClientIds = (keys: Iterable<string>) =>
  [...keys].filter((k) => k.startsWith('client/')).map((k) => decodeURIComponent(k.split('/')[1] ?? ''));

/** The internal ids of clients by clientId, looked up once per sync; a client that does not exist is absent. */
export async function lookUpClients(
  admin: AdminClient,
  ns: string,
  realm: string,
  clientIds: Iterable<string>,
  known: Map<string, string> = new Map(),
): Promise<Map<string, string>> {
  for (const clientId of new Set(clientIds)) {
    if (known.has(clientId)) continue;
    const res = await admin.call<Item[]>(ns, 'GET', `/${enc(realm)}/clients?clientId=${enc(clientId)}`);
    const found = (res.body ?? []).find((c) => c.clientId === clientId);
    if (found?.id) known.set(clientId, String(found.id));
  }
  return known;
}

/** The desired items of role references; a client that does not exist is refused naming the field. */
export function roleRefItems(
  refs: RoleRefs | undefined,
  clients: Map<string, string>,
  field: string,
): Item[] {
  const realmItems = (refs?.realm ?? []).map((name) => ({ name, clientRole: false }));
  const clientItems = Object.entries(refs?.client ?? {}).flatMap(([clientId, names]) => {
    const uuid = clients.get(clientId);
    if (!uuid)
      throw new RealmforgeError(
        'validation',
        `${field}.client names client "${clientId}", which does not exist in the realm: create it first or remove it`,
      );
    return names.map((name) => ({ name, clientRole: true, containerId: uuid }));
  });
  return [...realmItems, ...clientItems];
}

/** The composites of the role with id `roleId` in `realm`; `clients` maps clientId to internal id. */
export function roleComposites(
  realm: string,
  roleId: string,
  what: { noun: string; field: string },
  clients: Map<string, string>,
): Collection {
  const clientIdOf = new Map([...clients].map(([clientId, uuid]) => [uuid, clientId]));
  const path = `/${enc(realm)}/roles-by-id/${enc(roleId)}/composites`;
  const clientKey = (uuid: string, name: string) => {
    const clientId = clientIdOf.get(uuid);
    return clientId ? clientMappingKey(clientId, name) : `client/#${enc(uuid)}/${enc(name)}`;
  };
  const realmRole = resolveRole(`/${enc(realm)}/roles`, `${what.field}.realm`, 'realm');
  return {
    ...what,
    listPath: path,
    key: (r) =>
      r.clientRole ? clientKey(String(r.containerId), String(r.name)) : realmMappingKey(String(r.name)),
    compared: { name: '' },
    write: { mode: 'batch', path },
    resolve: (admin, ns, desired) => {
      if (!desired.clientRole) return realmRole(admin, ns, desired);
      const uuid = String(desired.containerId);
      const clientId = clientIdOf.get(uuid) ?? uuid;
      const field = `${what.field}.client[${clientId}]`;
      return resolveRole(`/${enc(realm)}/clients/${enc(uuid)}/roles`, field, `${clientId} client`)(
        admin,
        ns,
        desired,
      );
    },
  };
}
