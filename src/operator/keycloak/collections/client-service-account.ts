// The roles of a client's service account (spec.serviceAccount.realmRoles and clientRoles): one read of its
// mappings, then one collection per role owner (the realm, each client named); the client records the mappings it
// manages in its attribute (see role-mappings.ts), so roles granted by hand stay.
import type ClientRepresentation from '@keycloak/keycloak-admin-client/lib/defs/clientRepresentation.js';
import type { IdentityClient } from '../../../../generated/types/crds/identityclient.ts';
import { RealmforgeError } from '../../../core/errors.ts';
import type { AdminClient } from '../admin-client.ts';
import { clientPath, findClient } from './clients.ts';
import { type Item, ledger, syncCollection } from './collection.ts';
import {
  clientMappingKey,
  realmMappingKey,
  serviceAccountRolesLedger,
  userClientRoles,
  userRealmRoles,
} from './role-mappings.ts';

const enc = encodeURIComponent;

/** The ledger of service-account role mappings the spec declares (see role-mappings.ts). */
export function serviceAccountKeys(client: IdentityClient): string[] {
  const sa = client.spec.serviceAccount;
  if (!sa?.enabled) return [];
  return [
    ...(sa.realmRoles ?? []).map(realmMappingKey),
    ...(sa.clientRoles ?? []).flatMap((c) => c.roles.map((r) => clientMappingKey(c.client, r))),
  ].sort();
}

/**
 * Before a client is created: every role its service account is to hold exists (a role of the client itself must be
 * one of its spec.roles), so a missing one refuses the spec before anything is written. One read per role.
 */
export async function checkServiceAccountRoles(
  admin: AdminClient,
  ns: string,
  realm: string,
  client: IdentityClient,
  clientId: string,
) {
  const sa = client.spec.serviceAccount;
  if (!sa?.enabled) return;
  const missing = (field: string, what: string) =>
    new RealmforgeError(
      'validation',
      `spec.serviceAccount.${field} names ${what}, which realm ${realm} does not have`,
    );
  for (const role of sa.realmRoles ?? []) {
    const res = await admin.call(ns, 'GET', `/${enc(realm)}/roles/${enc(role)}`);
    if (res.status === 404) throw missing('realmRoles', `realm role "${role}"`);
  }
  const own = new Set((client.spec.roles ?? []).map((r) => r.name));
  for (const { client: owner, roles } of sa.clientRoles ?? []) {
    const field = `clientRoles[${owner}]`;
    if (owner === clientId) {
      const absent = roles.find((r) => !own.has(r));
      if (absent) throw missing(field, `role "${absent}" of this client (not in spec.roles)`);
      continue;
    }
    const uuid = (await findClient(admin, ns, realm, owner))?.id;
    if (!uuid) throw missing(field, `client "${owner}"`);
    for (const role of roles) {
      const res = await admin.call(ns, 'GET', `/${enc(realm)}/clients/${enc(uuid)}/roles/${enc(role)}`);
      if (res.status === 404) throw missing(field, `role "${role}" of client ${owner}`);
    }
  }
}

type RoleMappings = {
  realmMappings?: Item[];
  clientMappings?: Record<string, { id?: string; mappings?: Item[] }>;
};

// The service-account user's id per client uuid, per admin client: it changes only when the service account is
// turned off and on again, so a steady resync reads the mappings alone. A stale id answers 404 and is read again;
// a reconcile that just wrote the client reads it afresh.
const serviceAccountUsers = new WeakMap<AdminClient, Map<string, string>>();

/** The service account's user and its role mappings (one read when its user id is known). */
async function serviceAccountMappings(
  admin: AdminClient,
  ns: string,
  realm: string,
  uuid: string,
  fresh: boolean,
) {
  const known = serviceAccountUsers.get(admin) ?? new Map<string, string>();
  serviceAccountUsers.set(admin, known);
  const userPath = `${clientPath(realm, uuid)}/service-account-user`;
  for (const cached of fresh ? [false] : [true, false]) {
    const id =
      (cached ? known.get(uuid) : undefined) ??
      (await admin.call<{ id: string }>(ns, 'GET', userPath)).body.id;
    const res = await admin.call<RoleMappings>(ns, 'GET', `/${enc(realm)}/users/${enc(id)}/role-mappings`);
    if (res.status === 404 && cached && known.has(uuid)) {
      known.delete(uuid);
      continue;
    }
    known.set(uuid, id);
    return { user: { id }, mappings: res.body ?? {} };
  }
  throw new RealmforgeError(
    'transient',
    `the service account of client ${uuid} in realm ${realm} is not found`,
  );
}

/**
 * The service account's realm and client roles: one read of its mappings, then one collection per role owner.
 * `live` is the client as read before this reconcile's update (its ledger); `fresh`: the client was just written,
 * so its service-account user is read again. Returns the writes.
 */
export async function syncServiceAccountRoles(
  admin: AdminClient,
  ns: string,
  realm: string,
  client: IdentityClient,
  live: ClientRepresentation,
  fresh: boolean,
): Promise<string[]> {
  const sa = client.spec.serviceAccount;
  const owned = ledger(live.attributes, serviceAccountRolesLedger);
  if (!sa?.enabled || (!serviceAccountKeys(client).length && !owned.managed.size)) return [];
  const { user, mappings } = await serviceAccountMappings(admin, ns, realm, String(live.id), fresh);
  const writes: string[] = [];
  const realmResult = await syncCollection(
    admin,
    ns,
    userRealmRoles(realm, user.id),
    (sa.realmRoles ?? []).map((name) => ({ name })),
    owned,
    { live: mappings.realmMappings ?? [] },
  );
  writes.push(...realmResult.writes);
  // Every client named by the spec or by the ledger (a client dropped from the spec still has roles to take back).
  const declared = new Map((sa.clientRoles ?? []).map((c) => [c.client, c.roles]));
  const recorded = [...owned.managed]
    .filter((k) => k.startsWith('client/'))
    .map((k) => decodeURIComponent(k.split('/')[1] ?? ''));
  for (const clientId of new Set([...declared.keys(), ...recorded])) {
    const held = mappings.clientMappings?.[clientId];
    const want = (declared.get(clientId) ?? []).map((name) => ({ name }));
    if (!want.length && !held?.mappings?.length) continue;
    const uuid = held?.id ?? (await findClient(admin, ns, realm, clientId))?.id;
    if (!uuid)
      throw new RealmforgeError(
        'validation',
        `spec.serviceAccount.clientRoles names client "${clientId}", which realm ${realm} does not have`,
      );
    const roles = userClientRoles(realm, user.id, clientId, uuid);
    const result = await syncCollection(admin, ns, roles, want, owned, { live: held?.mappings ?? [] });
    writes.push(...result.writes);
  }
  return writes;
}
