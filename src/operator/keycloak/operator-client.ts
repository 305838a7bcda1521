// The operator's master identity. With the bootstrap admin (<server>-admin-credentials) the operator creates, once,
// a confidential service-account client `realmforge-operator` in master holding only the realm role `create-realm`
// (Keycloak grants a realm's creator the roles of that realm's `<realm>-realm` client in master, which is what
// restoring and deleting the realm need; everything else happens with the identity inside each realm,
// realm-identity.ts), with
// lightweight access tokens (client.use.lightweight.access.token.enabled): Keycloak then keeps the roles out of the
// token and evaluates them server-side, so the token does not grow with the realm count (a master admin's
// password-grant token lists every realm's management roles; keycloak/keycloak#25498). Its credentials are kept
// in <server>-operator-client beside the admin Secret; re-provisioning (the Secret lost, or the client's secret
// changed in Keycloak) regenerates the client's secret, which is the rotation.
import type { IdentityServer } from '../../../generated/types/crds/identityserver.ts';
import type { KubeObject } from '../compile/kube-object.ts';
import { labelValue, objectName } from '../compile/names.ts';
import { ownedMetadata } from '../compile/server-metadata.ts';
import { secretValue } from '../runtime/read-secret.ts';
import type { AdminClient } from './admin-client.ts';
import type { OperatorClient } from './admin-identity.ts';
import { ownerAttribute } from './collections/collection.ts';
import { KeycloakReasonError } from './reason-error.ts';

/** The clientId of the operator's client in master. */
export const operatorClientId = 'realmforge-operator';

/** The Secret beside <server>-admin-credentials that holds the operator's client credentials. */
export const operatorSecretName = (server: string) => objectName(server, '-operator-client');

/** The one realm role of master the master identity holds. */
export const masterRole = 'create-realm';

/** The attribute that marks the operator's own client: the owner attribute every managed item carries. */
const operatorMark = ownerAttribute;

/** The client as created: confidential, service account only, lightweight tokens, marked as ours. */
export const operatorClientRepresentation = {
  clientId: operatorClientId,
  name: 'realmforge operator',
  description: 'The realmforge operator manages realms and clients with this client; managed by realmforge.',
  protocol: 'openid-connect',
  publicClient: false,
  serviceAccountsEnabled: true,
  standardFlowEnabled: false,
  implicitFlowEnabled: false,
  directAccessGrantsEnabled: false,
  attributes: { 'client.use.lightweight.access.token.enabled': 'true', [operatorMark]: 'operator' },
};

/** The operator's identity was lost and cannot be restored without a person. */
export class OperatorIdentityLostError extends KeycloakReasonError {
  constructor(message: string, cause?: unknown) {
    super('auth', 'OperatorIdentityLost', message, { cause });
    this.name = 'OperatorIdentityLostError';
  }
}

const enc = encodeURIComponent;

/** The client's credentials from its Secret, when complete. */
export function decodeOperatorClient(secret: KubeObject | undefined): OperatorClient | undefined {
  const clientId = secretValue(secret, 'client-id');
  const clientSecret = secretValue(secret, 'client-secret');
  return clientId && clientSecret ? { clientId, clientSecret } : undefined;
}

/** The Secret that keeps the credentials, owned by the IdentityServer. */
export function operatorSecret(server: IdentityServer, client: OperatorClient): KubeObject {
  const b64 = (v: string) => Buffer.from(v).toString('base64');
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: ownedMetadata(server, operatorSecretName(server.metadata.name)) as KubeObject['metadata'],
    type: 'Opaque',
    data: { 'client-id': b64(client.clientId), 'client-secret': b64(client.clientSecret) },
  };
}

/** A client of the operator's clientId in master that the operator did not create: never adopted. */
export class OperatorClientConflictError extends KeycloakReasonError {
  constructor(clientId: string) {
    super(
      'conflict',
      'OperatorClientConflict',
      `master already has a client ${clientId} that realmforge did not create (it lacks the attribute ${operatorMark}=operator): the operator neither grants it roles nor changes its secret; delete or rename that client in master, and the operator creates its own at the next reconcile`,
    );
    this.name = 'OperatorClientConflictError';
  }
}

/**
 * With the bootstrap admin `admin`: creates the operator's client when absent (an existing one is used only when it
 * carries our mark: OperatorClientConflict otherwise), grants its service account the master role `create-realm` and
 * returns a newly generated secret. `namespace` is the server's (for the rate limit).
 */
export async function provisionOperatorClient(
  admin: AdminClient,
  namespace: string,
  clientId: string = operatorClientId,
): Promise<OperatorClient> {
  const find = async () => {
    const found = (
      await admin.call<{ id: string; attributes?: Record<string, string> }[]>(
        namespace,
        'GET',
        `/master/clients?clientId=${enc(clientId)}`,
      )
    ).body?.[0];
    if (found && found.attributes?.[operatorMark] !== 'operator')
      throw new OperatorClientConflictError(clientId);
    return found?.id;
  };
  let id = await find();
  if (!id) {
    await admin.call(namespace, 'POST', '/master/clients', { ...operatorClientRepresentation, clientId });
    id = await find();
    if (!id)
      throw new OperatorIdentityLostError(`Keycloak did not keep the new client ${clientId} in master`);
  }
  const user = await admin.call<{ id: string }>(
    namespace,
    'GET',
    `/master/clients/${enc(id)}/service-account-user`,
  );
  const role = await admin.call<{ id: string; name: string }>(
    namespace,
    'GET',
    `/master/roles/${masterRole}`,
  );
  if (!user.body?.id || !role.body?.id) {
    throw new OperatorIdentityLostError(
      `client ${clientId} in master has no service-account user, or master has no role ${masterRole}`,
    );
  }
  const granted = await admin.call<{ name: string }[]>(
    namespace,
    'GET',
    `/master/users/${enc(user.body.id)}/role-mappings/realm`,
  );
  if (!(granted.body ?? []).some((r) => r.name === masterRole)) {
    await admin.call(namespace, 'POST', `/master/users/${enc(user.body.id)}/role-mappings/realm`, [
      role.body,
    ]);
  }
  const secret = await admin.call<{ value?: string }>(
    namespace,
    'POST',
    `/master/clients/${enc(id)}/client-secret`,
  );
  if (!secret.body?.value) throw new OperatorIdentityLostError(`Keycloak returned no secret for ${clientId}`);
  return { clientId, clientSecret: secret.body.value };
}

/**
 * The operator's master identity kept beside a deployed server's database (no owner, so it outlives the
 * IdentityServer): a server re-created on the retained database, or a deleted <server>-operator-client, is restored
 * from it, realm key included, without any admin password. It replaces the copy of the bootstrap admin once the
 * identity exists.
 */
export const keptIdentitySecretName = (database: { cluster: string; name: string }) =>
  objectName(
    `${database.cluster}-${database.name}`.toLowerCase().replace(/[^a-z0-9.-]+/g, '-'),
    '-realmforge-operator',
  );

/** The kept copy of `data` (client-id, client-secret, realm-key, base64 as in <server>-operator-client). */
export function keptIdentitySecret(
  database: { cluster: string; name: string; namespace: string },
  data: Record<string, string>,
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: keptIdentitySecretName(database),
      namespace: database.namespace,
      labels: {
        'app.kubernetes.io/managed-by': 'realmforge',
        'realmforge.dev/database': labelValue(`${database.cluster}.${database.name}`),
      },
      annotations: {
        'realmforge.dev/purpose': `the realmforge operator's identity in the Keycloak of database ${database.name} in cluster ${database.cluster}; restores <server>-operator-client of any IdentityServer on this database`,
      },
    },
    type: 'Opaque',
    data,
  };
}
