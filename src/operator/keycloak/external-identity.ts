// The identity and trust of an existing Keycloak (IdentityServer spec.external). The user's Secret
// (spec.external.credentialsSecret) holds either a confidential client of master (client-id, client-secret) or a
// master admin (username, password). The operator keeps the identity it uses in <server>-operator-client, its own
// labelled Secret (read from the watch cache, so realm and client reconciles never read the user's Secret):
// - a client is used as given (copied; re-copied when the user changes it);
// - an admin account on Keycloak 26 or newer creates the operator's own client realmforge-operator once, as for a
//   deployed server (operator-client.ts); on 25 the account is used as given (25 refuses a lightweight
//   service-account token on the admin API, admins.ts).
// The optional CA (a Secret or ConfigMap key) is read with the credentials.
import type { IdentityServer } from '../../../generated/types/crds/identityserver.ts';
import { RealmforgeError } from '../../core/errors.ts';
import type { KubeObject } from '../compile/kube-object.ts';
import { boundedText } from '../compile/names.ts';
import { ownedMetadata } from '../compile/server-metadata.ts';
import type { Deps } from '../runtime/deps.ts';
import { readSecret, secretValue } from '../runtime/read-secret.ts';
import type { AdminClient } from './admin-client.ts';
import { type AdminIdentity, isOperatorClient } from './admin-identity.ts';
import { operatorSecretName, provisionOperatorClient } from './operator-client.ts';
import { KeycloakReasonError } from './reason-error.ts';

/** The user's credentials Secret lacks a usable pair of keys, or its CA reference points at nothing. */
export class ExternalSettingsError extends KeycloakReasonError {
  constructor(reason: string, message: string) {
    super('validation', reason, message);
    this.name = 'ExternalSettingsError';
  }
}

/** An identity from a Secret's keys: client-id/client-secret, else username/password (undefined: neither). */
export function decodeIdentity(secret: KubeObject | undefined): AdminIdentity | undefined {
  const clientId = secretValue(secret, 'client-id');
  const clientSecret = secretValue(secret, 'client-secret');
  if (clientId && clientSecret) return { clientId, clientSecret };
  const username = secretValue(secret, 'username');
  const password = secretValue(secret, 'password');
  return username && password ? { username, password } : undefined;
}

/** The identity in the user's Secret; ExternalSettingsError naming the Secret and the keys when unusable. */
export async function readExternalCredentials(deps: Deps, server: IdentityServer): Promise<AdminIdentity> {
  const ns = server.metadata.namespace ?? 'default';
  const name = server.spec.external?.credentialsSecret ?? '';
  const secret = await readSecret(deps, ns, name);
  const identity = decodeIdentity(secret);
  if (identity) return identity;
  throw new ExternalSettingsError(
    'CredentialsMissing',
    `spec.external.credentialsSecret: Secret ${ns}/${name} ${secret ? 'has neither keys client-id and client-secret nor keys username and password' : 'does not exist'}; create it with the credentials of a confidential client in master whose service account has the master role admin (kubectl create secret generic ${name} -n ${ns} --from-literal=client-id=<id> --from-literal=client-secret=<secret>) or of a master admin (keys username and password)`,
  );
}

/** The PEM CA of spec.external (undefined when none is set); ExternalSettingsError when it cannot be read. */
export async function readExternalCa(deps: Deps, server: IdentityServer): Promise<string | undefined> {
  const ns = server.metadata.namespace ?? 'default';
  const external = server.spec.external;
  if (external?.caSecretRef) {
    const ref = external.caSecretRef;
    const value = secretValue(await readSecret(deps, ns, ref.name), ref.key);
    if (value?.includes('-----BEGIN CERTIFICATE-----')) return value;
    throw new ExternalSettingsError(
      'CaMissing',
      `spec.external.caSecretRef: Secret ${ns}/${ref.name} has no PEM certificate under key "${ref.key}"; put the CA that signs Keycloak's certificate there`,
    );
  }
  if (external?.caConfigMapRef) {
    const ref = external.caConfigMapRef;
    const map = await deps.kube
      .get({ apiVersion: 'v1', kind: 'ConfigMap', namespace: ns, name: ref.name })
      .catch((error: unknown) => {
        if (!(error instanceof RealmforgeError && error.kind === 'auth')) throw error;
        throw new ExternalSettingsError(
          'CaAccessDenied',
          `spec.external.caConfigMapRef: the operator may not read ConfigMap ${ns}/${ref.name}: grant its ServiceAccount get on configmaps in ${ns} (a Role and RoleBinding), or put the CA in a Secret and use caSecretRef`,
        );
      });
    const value = (map?.data as Record<string, string> | undefined)?.[ref.key];
    if (value?.includes('-----BEGIN CERTIFICATE-----')) return value;
    throw new ExternalSettingsError(
      'CaMissing',
      `spec.external.caConfigMapRef: ConfigMap ${ns}/${ref.name} ${map ? `has no PEM certificate under key "${ref.key}"` : 'does not exist'}; put the CA that signs Keycloak's certificate there`,
    );
  }
  return undefined;
}

/**
 * The Secret <server>-operator-client holding `identity` (client keys or account keys; none on Keycloak 25, whose
 * master identity is its bootstrap admin) and the key of the realm identities' secrets, owned by the server.
 */
export function storedIdentitySecret(
  server: IdentityServer,
  identity: AdminIdentity | undefined,
  realmKey?: string,
): KubeObject {
  const b64 = (v: string) => Buffer.from(v).toString('base64');
  const data = !identity
    ? {}
    : isOperatorClient(identity)
      ? { 'client-id': b64(identity.clientId), 'client-secret': b64(identity.clientSecret) }
      : { username: b64(identity.username), password: b64(identity.password) };
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: ownedMetadata(server, operatorSecretName(server.metadata.name)) as KubeObject['metadata'],
    type: 'Opaque',
    data: realmKey ? { ...data, 'realm-key': b64(realmKey) } : data,
  };
}

/**
 * The operator's own client on an existing Keycloak: one per IdentityServer (realmforge-operator-<namespace>-<name>),
 * since several IdentityServers may point at one Keycloak and re-keying a shared client would lock the others out.
 */
export const externalClientId = (server: IdentityServer) =>
  boundedText(`realmforge-operator-${server.metadata.namespace ?? 'default'}-${server.metadata.name}`, 255);

/** The version Keycloak reports (GET /admin/serverinfo; only to a caller that may manage its realm). */
export async function keycloakVersion(admin: AdminClient, namespace: string): Promise<string | undefined> {
  const res = await admin.call<{ systemInfo?: { version?: string } }>(namespace, 'GET', '../serverinfo');
  return res.body?.systemInfo?.version;
}

/**
 * The identity the operator keeps for an existing Keycloak, from the user's: a client as is; an admin account
 * creates (or re-keys) the operator's own client on Keycloak 26 or newer and is kept as is on 25. `version`: what
 * the account read (Keycloak states it to a master admin, not to a client holding create-realm only).
 */
export async function externalIdentity(
  given: AdminIdentity,
  asGiven: AdminClient,
  server: IdentityServer,
): Promise<{ identity: AdminIdentity; created: boolean; version?: string }> {
  if (isOperatorClient(given)) return { identity: given, created: false };
  const ns = server.metadata.namespace ?? 'default';
  const version = await keycloakVersion(asGiven, ns);
  const major = Number.parseInt(version?.split('.')[0] ?? '', 10);
  if (!(major >= 26)) return { identity: given, created: false, version };
  const identity = await provisionOperatorClient(asGiven, ns, externalClientId(server));
  return { identity, created: true, version };
}
