// Which realms in Keycloak are whose. A realm the operator creates carries the attribute realmforge.dev/owner =
// <namespace>/<name> of its IdentityRealm; a realm without that marker was made outside realmforge and is never
// adopted, written or deleted unless the resource asks for adoption (spec.adoptExisting); a realm marked for
// another IdentityRealm is never taken. Which namespaces may hold realms on a server is the server's
// spec.realmAuthorizationGrants (default: the server's own namespace). The master realm is never managed.
import type RealmRepresentation from '@keycloak/keycloak-admin-client/lib/defs/realmRepresentation.js';
import type { IdentityRealm } from '../../../../generated/types/crds/identityrealm.ts';
import type { IdentityServer } from '../../../../generated/types/crds/identityserver.ts';
import { realmNameOf } from '../../compile/realm-representation.ts';
import { secretHash } from '../../compile/secret-hash.ts';

/** The realm attribute naming the IdentityRealm that owns a realm. */
export const realmOwnerAttribute = 'realmforge.dev/owner';
/** The realm attribute holding a hash of the SMTP password last sent (Keycloak never echoes the password). */
export const smtpPasswordHashAttribute = 'realmforge.dev/smtp-password-hash';

/** `namespace/name` of a realm resource: the owner marker's value. */
export const realmOwnerOf = (realm: IdentityRealm) =>
  `${realm.metadata.namespace ?? 'default'}/${realm.metadata.name}`;

/** Whose the live realm is, as seen by `realm`. */
export type RealmOwnership =
  | { state: 'absent' }
  | { state: 'ours' }
  | { state: 'adopt' }
  | { state: 'conflict'; message: string };

/** Decides what `realm` may do with the live realm of its name (undefined: it does not exist). */
export function realmOwnership(realm: IdentityRealm, live: RealmRepresentation | undefined): RealmOwnership {
  if (!live) return { state: 'absent' };
  const owner = live.attributes?.[realmOwnerAttribute];
  if (owner === realmOwnerOf(realm)) return { state: 'ours' };
  const name = realmNameOf(realm);
  if (owner) {
    return {
      state: 'conflict',
      message: `realm ${name} in Keycloak belongs to IdentityRealm ${owner}; nothing is written to it and deleting this resource leaves it: use another realm name (create a new IdentityRealm with another spec.realmName) or delete this one`,
    };
  }
  if (realm.spec.adoptExisting) return { state: 'adopt' };
  // Realms this resource created before owner markers existed: its status recorded the realm's id.
  const recorded = (realm as { status?: { realmId?: string } }).status?.realmId;
  if (recorded && recorded === live.id) return { state: 'adopt' };
  return {
    state: 'conflict',
    message: `realm ${name} already exists in Keycloak and was created outside realmforge; it is not adopted: to take it over (a migration from another tool) set spec.adoptExisting: true, otherwise choose another spec.realmName`,
  };
}

/** The namespaces whose IdentityRealms may hold realms on `server` (default: the server's own namespace). */
export function realmGrantsOf(server: IdentityServer): string[] {
  return server.spec.realmAuthorizationGrants ?? [server.metadata.namespace ?? 'default'];
}

/** Why `realm` may not be managed at all (the master realm, an ungranted namespace), or undefined. */
export function realmRefusal(
  realm: IdentityRealm,
  server: IdentityServer,
): { phase: 'Failed' | 'Pending'; reason: string; message: string } | undefined {
  const name = realmNameOf(realm);
  if (name === 'master') {
    const from = realm.spec.realmName ? 'spec.realmName' : 'metadata.name (spec.realmName is not set)';
    return {
      phase: 'Failed',
      reason: 'InvalidSpec',
      message: `the realm name master (from ${from}) is refused: the operator never manages Keycloak's master realm; create an IdentityRealm with another name`,
    };
  }
  const ns = realm.metadata.namespace ?? 'default';
  const grants = realmGrantsOf(server);
  if (grants.includes(ns)) return undefined;
  const serverKey = `${server.metadata.namespace ?? 'default'}/${server.metadata.name}`;
  return {
    phase: 'Pending',
    reason: 'NamespaceNotAuthorized',
    message: `namespace ${ns} is not in spec.realmAuthorizationGrants of IdentityServer ${serverKey} (${grants.join(', ') || 'none'}): nothing is written to Keycloak (a realm created earlier is left as it is); add ${ns} there to manage realm ${name}`,
  };
}

/** The realm's marker attributes: owner, and the keyed hash of the SMTP password when one is sent (`hashKey`: the
 * server's, server-hash-key.ts). */
export function ownershipAttributes(
  realm: IdentityRealm,
  smtpPassword?: string,
  hashKey?: string,
): Record<string, string> {
  return {
    [realmOwnerAttribute]: realmOwnerOf(realm),
    ...(smtpPassword && hashKey
      ? { [smtpPasswordHashAttribute]: secretHash(hashKey, realmNameOf(realm), smtpPassword) }
      : {}),
  };
}
