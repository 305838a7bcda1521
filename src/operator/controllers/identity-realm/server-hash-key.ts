// The key of a server's secret hashes. Keycloak never echoes a password it stores (SMTP, LDAP bind, identity
// provider secrets), so the operator records a hash of the value it last sent, in realm attributes or component
// config that anyone with view-realm reads. An unkeyed hash of a low-entropy password is checked offline in
// seconds; a keyed one (HMAC, compile/realm/identity-providers.ts secretHash) needs this key, which stays in
// Kubernetes: Secret <server>-hash-key in the IdentityServer's namespace (external servers too), created once
// with a random value and owned by the IdentityServer. A Secret of that name the operator did not make is a
// conflict, never overwritten.
import type { IdentityServer } from '../../../../generated/types/crds/identityserver.ts';
import { objectName } from '../../compile/names.ts';
import { ownedMetadata } from '../../compile/server-metadata.ts';
import type { KeycloakDeps } from '../../keycloak/keycloak-deps.ts';
import { readSecret, secretValue } from '../../runtime/read-secret.ts';
import { StuckError } from '../shared/stuck-error.ts';

const dataKey = 'key';

/** The name of a server's hash key Secret. */
export const hashKeySecretName = (server: IdentityServer) => objectName(server.metadata.name, '-hash-key');

// One creation at a time per server in this process: two realms reconciled together must not make two keys.
const creating = new Map<string, Promise<string>>();

/** The server's hash key, made on first use. */
export async function serverHashKey(deps: KeycloakDeps, server: IdentityServer): Promise<string> {
  const ns = server.metadata.namespace ?? 'default';
  const name = hashKeySecretName(server);
  const where = `${ns}/${name}`;
  const pending = creating.get(where);
  if (pending) return pending;
  const live = await readSecret(deps, ns, name);
  if (live) {
    const ours = live.metadata.ownerReferences?.some((r) => r.uid === server.metadata.uid && r.controller);
    const value = secretValue(live, dataKey);
    if (ours && value) return value;
    throw new StuckError(
      'conflict',
      'Pending',
      'ChildNameConflict',
      `Secret ${where} ${ours ? `has no key "${dataKey}"` : `was not created by realmforge for IdentityServer ${server.metadata.name}`}: the operator keeps the key of its secret hashes there and never overwrites a Secret it did not make; delete or rename that Secret`,
    );
  }
  const raced = creating.get(where);
  if (raced) return raced;
  const made = (async () => {
    const value = deps.newPassword();
    await deps.kube.apply({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {
        ...ownedMetadata(server, name, {
          annotations: {
            'realmforge.dev/purpose': 'HMAC key of the secret hashes the operator records in Keycloak',
          },
        }),
        name,
      },
      type: 'Opaque',
      data: { [dataKey]: Buffer.from(value, 'utf8').toString('base64') },
    });
    return value;
  })();
  creating.set(where, made);
  try {
    return await made;
  } finally {
    creating.delete(where);
  }
}
