// Makes one client in Keycloak equal to its IdentityClient. One read finds it by clientId (the list answer carries
// its fields, protocol mappers and secret); writes go only where something differs. A client is ours when its
// attribute realmforge.dev/owner names the resource; a clientId taken by any other client is a conflict, never
// adopted. Protocol mappers are compared by name; only mappers this operator created are ever deleted.
import type ClientRepresentation from '@keycloak/keycloak-admin-client/lib/defs/clientRepresentation.js';
import type ProtocolMapperRepresentation from '@keycloak/keycloak-admin-client/lib/defs/protocolMapperRepresentation.js';
import type RoleRepresentation from '@keycloak/keycloak-admin-client/lib/defs/roleRepresentation.js';
import type { IdentityClient } from '../../../../generated/types/crds/identityclient.ts';
import { RealmforgeError } from '../../../core/errors.ts';
import { compileClient } from '../../compile/client-representation.ts';
import type { AdminClient } from '../../keycloak/admin-client.ts';
import { isSubset } from '../../runtime/desired-state.ts';
import { StuckError } from '../shared/stuck-error.ts';

/** The attribute that marks a client as managed by one IdentityClient (`namespace/name`). */
export const ownerAttribute = 'realmforge.dev/owner';
/** The attribute listing the protocol mappers this operator created (comma-separated names). */
export const mappersAttribute = 'realmforge.dev/managed-mappers';

/** What a sync did. */
export type ClientSyncResult = { uuid: string; secret?: string; writes: string[] };

const enc = encodeURIComponent;
const setFields = ['redirectUris', 'webOrigins', 'defaultClientScopes', 'optionalClientScopes'] as const;

/** The owner attribute value of a resource. */
export const ownerOf = (client: IdentityClient) => `${client.metadata.namespace}/${client.metadata.name}`;

/** The representation to create or compare: the compiled fields plus the ownership attributes. */
export function desiredClient(client: IdentityClient): ClientRepresentation {
  const compiled = compileClient(client);
  const mappers = (compiled.protocolMappers ?? []).map((m) => m.name).join(',');
  // Keycloak drops attributes with an empty value, so an empty list is left out (else it would be drift forever).
  return {
    ...compiled,
    attributes: {
      ...compiled.attributes,
      [ownerAttribute]: ownerOf(client),
      ...(mappers ? { [mappersAttribute]: mappers } : {}),
    },
  };
}

const sorted = (xs: unknown) => (Array.isArray(xs) ? [...xs].map(String).sort() : xs);

/** The client fields (mappers and scopes aside) where Keycloak differs from `desired`; sets compare unordered. */
export function clientDrift(desired: ClientRepresentation, live: ClientRepresentation): string[] {
  const drift: string[] = [];
  for (const [field, want] of Object.entries(desired)) {
    if (want === undefined || field === 'protocolMappers') continue;
    const have = (live as Record<string, unknown>)[field];
    const same = (setFields as readonly string[]).includes(field)
      ? isSubset(sorted(want), sorted(have ?? []))
      : isSubset(want, have);
    if (!same) drift.push(field);
  }
  return drift;
}

/** Finds the client with `clientId` in `realm` (one read). */
export async function findClient(admin: AdminClient, ns: string, realm: string, clientId: string) {
  const res = await admin.call<ClientRepresentation[]>(
    ns,
    'GET',
    `/${enc(realm)}/clients?clientId=${enc(clientId)}&max=2`,
  );
  if (res.status === 404) throw new RealmforgeError('not_found', `realm ${realm} does not exist in Keycloak`);
  return (res.body ?? []).find((c) => c.clientId === clientId);
}

async function syncMappers(
  admin: AdminClient,
  ns: string,
  base: string,
  desired: ClientRepresentation,
  live: ClientRepresentation,
  writes: string[],
) {
  const liveMappers = live.protocolMappers ?? [];
  for (const want of desired.protocolMappers ?? []) {
    const have = liveMappers.find((m) => m.name === want.name);
    if (!have) {
      await admin.call(ns, 'POST', `${base}/protocol-mappers/models`, want);
      writes.push(`create mapper ${want.name}`);
    } else if (!isSubset(want, have)) {
      await admin.call(ns, 'PUT', `${base}/protocol-mappers/models/${enc(have.id ?? '')}`, {
        ...want,
        id: have.id,
      });
      writes.push(`update mapper ${want.name}`);
    }
  }
  const wanted = new Set((desired.protocolMappers ?? []).map((m) => m.name));
  const ours = String(live.attributes?.[mappersAttribute] ?? '')
    .split(',')
    .filter(Boolean);
  for (const m of liveMappers as ProtocolMapperRepresentation[]) {
    if (m.name && ours.includes(m.name) && !wanted.has(m.name)) {
      await admin.call(ns, 'DELETE', `${base}/protocol-mappers/models/${enc(m.id ?? '')}`);
      writes.push(`delete mapper ${m.name}`);
    }
  }
}

async function syncScopes(
  admin: AdminClient,
  ns: string,
  realm: string,
  base: string,
  desired: ClientRepresentation,
  live: ClientRepresentation,
  writes: string[],
) {
  const kinds = [
    ['defaultClientScopes', 'default-client-scopes'],
    ['optionalClientScopes', 'optional-client-scopes'],
  ] as const;
  let scopes: { id?: string; name?: string }[] | undefined;
  for (const [field, path] of kinds) {
    const want = desired[field];
    if (!want) continue;
    const have = live[field] ?? [];
    const add = want.filter((s) => !have.includes(s));
    const remove = have.filter((s) => !want.includes(s));
    if (!add.length && !remove.length) continue;
    scopes ??=
      (await admin.call<{ id?: string; name?: string }[]>(ns, 'GET', `/${enc(realm)}/client-scopes`)).body ??
      [];
    for (const [names, method] of [
      [add, 'PUT'],
      [remove, 'DELETE'],
    ] as const) {
      for (const name of names) {
        const id = scopes.find((s) => s.name === name)?.id;
        if (!id)
          throw new RealmforgeError(
            'validation',
            `spec.${field} names client scope "${name}", which realm ${realm} does not have`,
          );
        await admin.call(ns, method, `${base}/${path}/${enc(id)}`);
        writes.push(`${method === 'PUT' ? 'add' : 'remove'} ${path} ${name}`);
      }
    }
  }
}

async function syncClientRoles(
  admin: AdminClient,
  ns: string,
  base: string,
  client: IdentityClient,
  writes: string[],
) {
  if (!client.spec.roles?.length) return;
  const live = (await admin.call<RoleRepresentation[]>(ns, 'GET', `${base}/roles`)).body ?? [];
  for (const role of client.spec.roles) {
    const want = { name: role.name, description: role.description ?? '' };
    const have = live.find((r) => r.name === role.name);
    if (!have) {
      await admin.call(ns, 'POST', `${base}/roles`, want);
      writes.push(`create client role ${role.name}`);
    } else if ((have.description ?? '') !== want.description) {
      await admin.call(ns, 'PUT', `${base}/roles/${enc(role.name)}`, { ...have, ...want });
      writes.push(`update client role ${role.name}`);
    }
  }
}

type RoleMappings = {
  realmMappings?: RoleRepresentation[];
  clientMappings?: Record<string, { id?: string; mappings?: RoleRepresentation[] }>;
};

async function roleReps(admin: AdminClient, ns: string, path: string, names: string[], what: string) {
  const reps: RoleRepresentation[] = [];
  for (const name of names) {
    const res = await admin.call<RoleRepresentation>(ns, 'GET', `${path}/${enc(name)}`);
    if (res.status === 404)
      throw new RealmforgeError(
        'validation',
        `spec.serviceAccount names ${what} role "${name}", which does not exist`,
      );
    reps.push(res.body);
  }
  return reps;
}

async function syncServiceAccountRoles(
  admin: AdminClient,
  ns: string,
  realm: string,
  base: string,
  client: IdentityClient,
  writes: string[],
) {
  const sa = client.spec.serviceAccount;
  if (!sa?.enabled || (!sa.realmRoles?.length && !sa.clientRoles?.length)) return;
  const user = (await admin.call<{ id: string }>(ns, 'GET', `${base}/service-account-user`)).body;
  const userPath = `/${enc(realm)}/users/${enc(user.id)}/role-mappings`;
  const mappings = (await admin.call<RoleMappings>(ns, 'GET', userPath)).body ?? {};
  const haveRealm = new Set((mappings.realmMappings ?? []).map((r) => r.name));
  const missingRealm = (sa.realmRoles ?? []).filter((r) => !haveRealm.has(r));
  if (missingRealm.length) {
    const reps = await roleReps(admin, ns, `/${enc(realm)}/roles`, missingRealm, 'realm');
    await admin.call(ns, 'POST', `${userPath}/realm`, reps);
    writes.push(`map realm roles ${missingRealm.join(',')} to the service account`);
  }
  for (const entry of sa.clientRoles ?? []) {
    const have = new Set((mappings.clientMappings?.[entry.client]?.mappings ?? []).map((r) => r.name));
    const missing = entry.roles.filter((r) => !have.has(r));
    if (!missing.length) continue;
    const target = await findClient(admin, ns, realm, entry.client);
    if (!target?.id)
      throw new RealmforgeError(
        'validation',
        `spec.serviceAccount.clientRoles names client "${entry.client}", which realm ${realm} does not have`,
      );
    const reps = await roleReps(
      admin,
      ns,
      `/${enc(realm)}/clients/${enc(target.id)}/roles`,
      missing,
      `${entry.client} client`,
    );
    await admin.call(ns, 'POST', `${userPath}/clients/${enc(target.id)}`, reps);
    writes.push(`map ${entry.client} roles ${missing.join(',')} to the service account`);
  }
}

/**
 * Creates or corrects the client; throws a conflict error when its clientId belongs to another client. A client
 * created anew takes `knownSecret` (the one its credentials Secret holds) so applications keep working.
 */
export async function syncClient(
  admin: AdminClient,
  realm: string,
  client: IdentityClient,
  knownSecret?: string,
): Promise<ClientSyncResult> {
  const ns = client.metadata.namespace ?? 'default';
  const desired = desiredClient(client);
  const clientId = desired.clientId as string;
  const writes: string[] = [];
  let live = await findClient(admin, ns, realm, clientId);
  if (live && live.attributes?.[ownerAttribute] !== ownerOf(client)) {
    const owner = live.attributes?.[ownerAttribute];
    throw new StuckError(
      'conflict',
      'Failed',
      'ClientIdConflict',
      `client ID ${clientId} is already taken in realm ${realm} by a client ${owner ? `of IdentityClient ${owner}` : 'this operator does not manage'}; choose another spec.clientId or remove that client`,
    );
  }
  if (!live) {
    const confidential = (client.spec.type ?? 'confidential') === 'confidential';
    const body = confidential && knownSecret ? { ...desired, secret: knownSecret } : desired;
    const created = await admin.call(ns, 'POST', `/${enc(realm)}/clients`, body);
    if (created.status === 409)
      throw new RealmforgeError(
        'conflict',
        `client ID ${clientId} was created concurrently in realm ${realm}`,
      );
    writes.push('create client');
    live = await findClient(admin, ns, realm, clientId);
    if (!live?.id)
      throw new RealmforgeError(
        'transient',
        `client ${clientId} is not visible in realm ${realm} after creation`,
      );
  }
  const base = `/${enc(realm)}/clients/${enc(live.id ?? '')}`;
  const { protocolMappers: _, defaultClientScopes: _d, optionalClientScopes: _o, ...fields } = desired;
  const drift = clientDrift(fields, live);
  if (drift.length) {
    await admin.call(ns, 'PUT', base, { ...fields, id: live.id });
    writes.push(`update client (${drift.join(', ')})`);
  }
  await syncMappers(admin, ns, base, desired, live, writes);
  await syncScopes(admin, ns, realm, base, desired, live, writes);
  await syncClientRoles(admin, ns, base, client, writes);
  await syncServiceAccountRoles(admin, ns, realm, base, client, writes);
  return { uuid: live.id as string, secret: live.secret, writes };
}

/**
 * Disables the resource's client in Keycloak when it exists and is ours. Returns whether such a client exists
 * (and is now disabled), and whether this call had to write: a client disabled earlier is reported, not rewritten.
 */
export async function disableClient(
  admin: AdminClient,
  realm: string,
  client: IdentityClient,
): Promise<{ disabled: boolean; wrote: boolean }> {
  const ns = client.metadata.namespace ?? 'default';
  const live = await findClient(admin, ns, realm, desiredClient(client).clientId as string);
  if (!live?.id || live.attributes?.[ownerAttribute] !== ownerOf(client))
    return { disabled: false, wrote: false };
  if (live.enabled === false) return { disabled: true, wrote: false };
  await admin.call(ns, 'PUT', `/${enc(realm)}/clients/${enc(live.id)}`, {
    id: live.id,
    clientId: live.clientId,
    enabled: false,
  });
  return { disabled: true, wrote: true };
}

/** Deletes the resource's client from Keycloak when it exists and is ours. */
export async function deleteClient(admin: AdminClient, realm: string, client: IdentityClient): Promise<void> {
  const ns = client.metadata.namespace ?? 'default';
  const live = await findClient(admin, ns, realm, desiredClient(client).clientId as string).catch((e) => {
    if (e instanceof RealmforgeError && e.kind === 'not_found') return undefined;
    throw e;
  });
  if (!live?.id || live.attributes?.[ownerAttribute] !== ownerOf(client)) return;
  await admin.call(ns, 'DELETE', `/${enc(realm)}/clients/${enc(live.id)}`);
}
