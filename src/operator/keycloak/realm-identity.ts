// The operator's identity inside each realm it manages: a confidential service-account client `realmforge-operator`
// whose service account holds only the realm-management roles the sections write with (realmIdentityRoles), so
// Keycloak itself refuses a call about one realm made with another realm's token. A realm the operator creates
// carries it in its create representation (withRealmIdentity), so no moment exists in which the realm is managed
// by anything else. Its secret is derived (HMAC-SHA256) from one key in the server's operator Secret and the realm
// name: no Secret per realm. The master identity (create-realm, plus the roles of `<realm>-realm` that Keycloak
// grants a realm's creator) restores it when it is lost, re-keyed or stripped of roles (ensureRealmIdentity).
import { createHmac } from 'node:crypto';
import { RealmforgeError } from '../../core/errors.ts';
import type { AdminClient } from './admin-client.ts';
import type { OperatorClient } from './admin-identity.ts';
import { ownerAttribute } from './collections/collection.ts';
import { KeycloakReasonError } from './reason-error.ts';

/** The clientId of the operator's client inside a realm (the same as its client in master). */
export const realmIdentityClientId = 'realmforge-operator';

/**
 * The roles of the realm's `realm-management` client its service account holds, one per section family the
 * operator writes: realm settings, realm roles, flows, required actions, client policies, user profile,
 * organizations and user federation (manage-realm); clients, client scopes, service-account roles
 * (manage-clients); groups, their role mappings and service-account users (manage-users); identity providers
 * (manage-identity-providers); client authorization services (manage-authorization); event settings
 * (manage-events). Each manage role includes its view role in Keycloak's evaluation.
 */
export const realmIdentityRoles = [
  'manage-authorization',
  'manage-clients',
  'manage-events',
  'manage-identity-providers',
  'manage-realm',
  'manage-users',
] as const;

/** The roles of client `<realm>-realm` in master the master identity needs to restore and delete a realm. */
export const masterGrantRoles = realmIdentityRoles;

const mark = { [ownerAttribute]: 'operator' };

/** The realm identity's secret: HMAC-SHA256 of the realm name under the server's key (base64url, 43 chars). */
export const realmIdentitySecret = (key: string, realm: string) =>
  createHmac('sha256', key).update(`realm-identity\0${realm}`).digest('base64url');

/** The realm identity's credentials (its token comes from /realms/<realm>/protocol/openid-connect/token). */
export const realmIdentity = (key: string, realm: string): OperatorClient => ({
  clientId: realmIdentityClientId,
  clientSecret: realmIdentitySecret(key, realm),
  realm,
});

/** The client as created in a realm: confidential, service account only, marked as the operator's. */
export const realmIdentityClient = (secret: string) => ({
  clientId: realmIdentityClientId,
  name: 'realmforge operator',
  description: 'The realmforge operator manages this realm with this client; managed by realmforge.',
  protocol: 'openid-connect',
  publicClient: false,
  clientAuthenticatorType: 'client-secret',
  secret,
  serviceAccountsEnabled: true,
  standardFlowEnabled: false,
  implicitFlowEnabled: false,
  directAccessGrantsEnabled: false,
  attributes: { ...mark },
});

/** The service-account user of the client, as a realm import declares it. */
const serviceAccountUser = () => ({
  username: `service-account-${realmIdentityClientId}`,
  enabled: true,
  serviceAccountClientId: realmIdentityClientId,
  clientRoles: { 'realm-management': [...realmIdentityRoles] },
});

/** The create representation with the realm identity added: client and its service account with its roles
 * (unchanged without a secret: a caller that manages the realm some other way). */
export function withRealmIdentity<T extends Record<string, unknown>>(
  rep: T,
  secret: string | undefined,
): T & { clients?: unknown[]; users?: unknown[] } {
  if (secret === undefined) return rep;
  const clients = (rep.clients as unknown[] | undefined) ?? [];
  const users = (rep.users as unknown[] | undefined) ?? [];
  return {
    ...rep,
    clients: [...clients, realmIdentityClient(secret)],
    users: [...users, serviceAccountUser()],
  };
}

/** The realm identity cannot be used: its client is missing, or Keycloak refuses its secret. */
export class RealmIdentityRefusedError extends KeycloakReasonError {
  readonly realm: string;
  constructor(realm: string, message: string, cause?: unknown) {
    super('auth', 'RealmIdentityRefused', message, { cause });
    this.name = 'RealmIdentityRefusedError';
    this.realm = realm;
  }
}

/** The exact grant a person gives so that the operator may create its identity in a realm it did not create. */
export function grantMessage(realm: string, masterUser: string): string {
  const roles = masterGrantRoles.map((r) => `--rolename ${r}`).join(' ');
  return `the operator's master identity (user ${masterUser} in master) holds no grant in realm ${realm}, so it may neither read it nor create its identity there; nothing was written. Grant it the roles ${masterGrantRoles.join(', ')} of client ${realm}-realm in master (kcadm.sh add-roles -r master --uusername ${masterUser} --cclientid ${realm}-realm ${roles}); the operator then creates its client ${realmIdentityClientId} in ${realm} with the realm-management roles ${realmIdentityRoles.join(', ')}`;
}

const enc = encodeURIComponent;
type Named = { id: string; name: string };

/** Maps to user `userId` of realm `base` (`/<realm>`) the roles of client `clientUuid` named in `wanted` that it
 * does not hold yet; returns their names. */
async function grantClientRoles(
  master: AdminClient,
  ns: string,
  base: string,
  userId: string,
  clientUuid: string,
  wanted: readonly string[],
): Promise<string[]> {
  const mappings = `${base}/users/${enc(userId)}/role-mappings/clients/${enc(clientUuid)}`;
  const held = new Set(((await master.call<Named[]>(ns, 'GET', mappings)).body ?? []).map((r) => r.name));
  const missing = wanted.filter((r) => !held.has(r));
  if (!missing.length) return [];
  const roles =
    (await master.call<Named[]>(ns, 'GET', `${base}/clients/${enc(clientUuid)}/roles`)).body ?? [];
  await master.call(
    ns,
    'POST',
    mappings,
    roles.filter((r) => missing.includes(r.name)),
  );
  return missing;
}

/**
 * With the master identity: makes the realm identity whole (client present and ours, its secret the derived one,
 * its service account holding realmIdentityRoles). Returns what it changed, worded for status ("created client
 * realmforge-operator", "set its secret", "granted manage-users"); empty when nothing was missing.
 */
export async function ensureRealmIdentity(
  master: AdminClient,
  ns: string,
  realm: string,
  secret: string,
): Promise<string[]> {
  const base = `/${enc(realm)}`;
  const changes: string[] = [];
  const find = async () =>
    (
      await master.call<{ id: string; attributes?: Record<string, string>; secret?: string }[]>(
        ns,
        'GET',
        `${base}/clients?clientId=${realmIdentityClientId}`,
      )
    ).body?.[0];
  let client = await find();
  if (client && client.attributes?.[ownerAttribute] !== 'operator') {
    throw new KeycloakReasonError(
      'conflict',
      'RealmIdentityConflict',
      `realm ${realm} has a client ${realmIdentityClientId} that realmforge did not create (it lacks the attribute ${ownerAttribute}=operator): the operator does not take it over; delete or rename it, and the operator creates its own`,
    );
  }
  if (!client) {
    await master.call(ns, 'POST', `${base}/clients`, realmIdentityClient(secret));
    client = await find();
    if (!client)
      throw new RealmforgeError(
        'transient',
        `Keycloak did not keep client ${realmIdentityClientId} in ${realm}`,
      );
    changes.push(`created client ${realmIdentityClientId}`);
  } else {
    const current = await master.call<{ value?: string }>(
      ns,
      'GET',
      `${base}/clients/${enc(client.id)}/client-secret`,
    );
    if (current.body?.value !== secret) {
      await master.call(ns, 'PUT', `${base}/clients/${enc(client.id)}`, { ...client, secret });
      changes.push('set its secret');
    }
  }
  const user = (await master.call<Named>(ns, 'GET', `${base}/clients/${enc(client.id)}/service-account-user`))
    .body;
  const rm = (await master.call<Named[]>(ns, 'GET', `${base}/clients?clientId=realm-management`)).body?.[0];
  if (!user?.id || !rm?.id)
    throw new RealmforgeError(
      'transient',
      `realm ${realm} shows no service account or no realm-management client`,
    );
  const granted = await grantClientRoles(master, ns, base, user.id, rm.id, realmIdentityRoles);
  if (granted.length) changes.push(`granted ${granted.join(', ')}`);
  return changes;
}

/**
 * Migration, while the master identity still holds master's `admin` (earlier versions granted it): gives the
 * master identity's service account the roles of `<realm>-realm` that Keycloak grants a realm's creator, so it can
 * restore and delete the realm once `admin` is gone. Returns what it granted; nothing when held already.
 */
export async function grantMasterInRealm(
  master: AdminClient,
  ns: string,
  realm: string,
  masterClientId: string,
): Promise<string[]> {
  const first = async (path: string) => (await master.call<Named[]>(ns, 'GET', path)).body?.[0];
  const own = await first(`/master/clients?clientId=${enc(masterClientId)}`);
  const admin = await first(`/master/clients?clientId=${enc(`${realm}-realm`)}`);
  if (!own?.id || !admin?.id) return [];
  const user = (await master.call<Named>(ns, 'GET', `/master/clients/${enc(own.id)}/service-account-user`))
    .body;
  if (!user?.id) return [];
  const granted = await grantClientRoles(master, ns, '/master', user.id, admin.id, masterGrantRoles);
  return granted.length ? [`granted the master identity ${granted.join(', ')} of ${realm}-realm`] : [];
}
