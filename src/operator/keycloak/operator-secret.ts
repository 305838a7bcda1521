// The Secret <server>-operator-client: the master identity's credentials and the key `realm-key` from which each
// realm identity's secret is derived (made once, at random, and kept with it). A Secret of that name the server does
// not control is someone else's: never read as ours, never rewritten. A deployed server whose Secret is gone (one
// re-created on a retained database) gets it back from the copy kept beside its database, realm key included.
import type { IdentityServer } from '../../../generated/types/crds/identityserver.ts';
import type { KubeObject } from '../compile/kube-object.ts';
import { resolveServer } from '../compile/resolved-server.ts';
import type { Deps } from '../runtime/deps.ts';
import { readSecret, SecretAccessDeniedError, secretValue } from '../runtime/read-secret.ts';
import type { OperatorClient } from './admin-identity.ts';
import { decodeIdentity, storedIdentitySecret } from './external-identity.ts';
import { decodeOperatorClient, keptIdentitySecretName, operatorSecretName } from './operator-client.ts';
import { KeycloakReasonError } from './reason-error.ts';

/** The key in <server>-operator-client from which each realm identity's secret is derived. */
export const realmKeyField = 'realm-key';

const idOf = (server: IdentityServer) => `${server.metadata.namespace ?? 'default'}/${server.metadata.name}`;

/** Reads, restores and extends the servers' operator Secrets. */
export function operatorSecrets(deps: Deps) {
  const keys = new Map<string, string>();
  const keying = new Map<string, Promise<string>>();
  const written = new Set<string>();

  /** <server>-operator-client as stored (undefined: absent); a Secret of that name not the server's is a conflict. */
  async function own(server: IdentityServer) {
    const id = idOf(server);
    const ns = server.metadata.namespace ?? 'default';
    const secret = await readSecret(deps, ns, operatorSecretName(server.metadata.name));
    // A Secret of that name the server does not control is someone else's: never read as ours, never rewritten.
    const uid = server.metadata.uid;
    if (secret && uid && !secret.metadata.ownerReferences?.some((r) => r.controller && r.uid === uid)) {
      throw new KeycloakReasonError(
        'conflict',
        'ChildNameConflict',
        `Secret ${ns}/${secret.metadata.name} already exists and is not IdentityServer ${id}'s; the operator leaves it untouched and keeps its own client's credentials nowhere else: delete it or give the IdentityServer another name`,
      );
    }
    return secret;
  }

  /**
   * The key of the realm identities' secrets, made once. `persist` false: only chosen (the caller writes the Secret
   * with it, as provisioning does, in one write); true: written into the Secret when it lacks it.
   */
  async function realmKey(server: IdentityServer, persist = true): Promise<string> {
    const id = idOf(server);
    const secret = await own(server);
    const stored = secretValue(secret, realmKeyField);
    if (stored) {
      keys.set(id, stored);
      written.add(id);
      return stored;
    }
    const value = keys.get(id) ?? deps.newPassword();
    keys.set(id, value);
    // Written by us already: the Secret read (from the watch cache) does not show it yet.
    if (!persist || written.has(id)) return value;
    let running = keying.get(id);
    if (!running) {
      const data = { ...(secret?.data as Record<string, string> | undefined) };
      data[realmKeyField] = Buffer.from(value).toString('base64');
      const base = storedIdentitySecret(server, decodeIdentity(secret));
      running = deps.kube
        .apply({ ...base, data })
        .then(() => {
          written.add(id);
          return value;
        })
        .finally(() => keying.delete(id));
      keying.set(id, running);
    }
    return running;
  }

  /** Records that `server`'s Secret now holds its realm key (written with the master identity). */
  const keyWritten = (server: IdentityServer) => written.add(idOf(server));

  /** A deployed server's <server>-operator-client restored from the copy kept beside its database (a server
   * re-created on a retained database): its client and realm key, with no admin password. */
  async function restoreKept(server: IdentityServer): Promise<OperatorClient | undefined> {
    if (server.spec.external) return undefined;
    const r = resolveServer(server);
    const copy = await readSecret(deps, r.database.namespace, keptIdentitySecretName(r.database)).catch(
      (error: unknown) => {
        if (error instanceof SecretAccessDeniedError) return undefined;
        throw error;
      },
    );
    const identity = decodeOperatorClient(copy);
    if (!identity) return undefined;
    const key = secretValue(copy, realmKeyField);
    if (key) keys.set(idOf(server), key);
    await deps.kube.apply(storedIdentitySecret(server, identity, key));
    if (key) written.add(idOf(server));
    await deps.kube.event(server as unknown as KubeObject, {
      type: 'Normal',
      reason: 'OperatorClientRestored',
      message: `the operator's client ${identity.clientId} in master is used again from the copy kept beside the database (Secret ${r.database.namespace}/${keptIdentitySecretName(r.database)})`,
    });
    return identity;
  }

  return { own, realmKey, keyWritten, restoreKept };
}
