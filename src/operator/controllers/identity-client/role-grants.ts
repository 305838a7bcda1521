// Namespace grants are a real boundary: a client's service account may hold roles of another client of the realm
// (realm-management above all, whose view-clients would read every other namespace's client secrets) only when
// the realm's spec.crossClientRoleGrants lets the client's namespace hold exactly those roles. Checked before
// anything is written, so a refused client gets nothing.
import type { IdentityClient } from '../../../../generated/types/crds/identityclient.ts';
import type { IdentityRealm } from '../../../../generated/types/crds/identityrealm.ts';
import { clientIdOf } from '../../compile/client-representation.ts';

/** The roles of other clients `client` asks for that its realm does not grant its namespace (`client/role`). */
export function ungrantedClientRoles(client: IdentityClient, realm: IdentityRealm): string[] {
  if (!client.spec.serviceAccount?.enabled) return [];
  const ns = client.metadata.namespace ?? 'default';
  const own = clientIdOf(client);
  const grants = (realm.spec.crossClientRoleGrants ?? []).filter((g) => g.namespaces.includes(ns));
  const allowed = (target: string, role: string) =>
    grants.some((g) => g.client === target && (g.roles.includes(role) || g.roles.includes('*')));
  return (client.spec.serviceAccount?.clientRoles ?? []).flatMap((entry) =>
    entry.client === own
      ? []
      : entry.roles.filter((r) => !allowed(entry.client, r)).map((r) => `${entry.client}/${r}`),
  );
}

/** The status message for refused roles, naming the realm field that would allow them. */
export function roleRefusalMessage(client: IdentityClient, realmKey: string, refused: string[]): string {
  const ns = client.metadata.namespace ?? 'default';
  return `spec.serviceAccount.clientRoles asks for roles of other clients that IdentityRealm ${realmKey} does not grant namespace ${ns}: ${refused.join(', ')}; nothing is granted. The realm's owner can allow them in its spec.crossClientRoleGrants (namespaces, client, roles)`;
}
