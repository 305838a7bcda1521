// Reads what an IdentityServer compile needs from the cluster: the admin credentials (read from
// <name>-admin-credentials, else restored from the copy kept beside the database, else none once the operator's own
// identity exists, else generated for a server that never ran; see server-admin.ts), the operator's identity
// (<name>-operator-client with a client), the database credentials Secret in the database namespace, and the CNPG
// Cluster. Forbidden reads become a missing Secret with a message naming the RoleBinding to create.
import type { IdentityServer } from '../../../../generated/types/crds/identityserver.ts';
import type { KubeObject } from '../../compile/kube-object.ts';
import type { ResolvedServer } from '../../compile/resolved-server.ts';
import {
  decodeOperatorClient,
  keptIdentitySecretName,
  operatorSecretName,
} from '../../keycloak/operator-client.ts';
import type { Deps } from '../../runtime/deps.ts';
import {
  type Credentials,
  decodeCredentials,
  readSecret,
  SecretAccessDeniedError,
} from '../../runtime/read-secret.ts';
import { keptCredentials, readKept, readKeptAdmin } from './server-admin.ts';
import { type DatabaseClusterObservation, observeDatabaseCluster } from './server-stuck.ts';

/** Where the admin credentials came from; `released`: none, and none needed (the operator's identity exists);
 * `lost`: none, none may be generated, and the operator has no identity of its own. */
export type AdminSource = 'stored' | 'restored' | 'generated' | 'released' | 'lost';

/** What was read: the admin credentials to keep, the database credentials if found, the Cluster observation. */
export type ServerWorld = {
  readonly admin?: Credentials;
  readonly adminGenerated: boolean;
  /** The operator's identity as <name>-operator-client holds it (base64 data), once it has a client. */
  readonly identity?: Record<string, string>;
  readonly adminSource: AdminSource;
  /** The copy of the admin credentials kept beside the database, as stored. */
  readonly keptAdmin?: KubeObject;
  readonly database?: Credentials;
  /** Why the database credentials could not be read (no Secret access in the database namespace). */
  readonly databaseDenied?: string;
  readonly databaseCluster: DatabaseClusterObservation;
};

/** Reads the world of one server; never generates a new admin password when one is stored. */
export async function readServerWorld(
  deps: Deps,
  server: IdentityServer,
  resolved: ResolvedServer,
): Promise<ServerWorld> {
  const stored = decodeCredentials(await readSecret(deps, resolved.namespace, resolved.adminSecretName));
  const keptAdmin = await readKeptAdmin(deps, resolved);
  const kept = keptCredentials(keptAdmin);
  const operator = await readSecret(deps, resolved.namespace, operatorSecretName(resolved.name));
  const identity = decodeOperatorClient(operator) ? (operator?.data as Record<string, string>) : undefined;
  const keptIdentity = await readKept(deps, resolved, keptIdentitySecretName(resolved.database));
  // A server that ran has an admin in its database: a generated password could never log in.
  const ranBefore = Boolean(server.status?.databaseVersion ?? server.status?.version);
  const adminSource: AdminSource = stored
    ? 'stored'
    : kept
      ? 'restored'
      : identity || keptIdentity
        ? 'released'
        : ranBefore
          ? 'lost'
          : 'generated';
  const admin =
    stored ??
    kept ??
    (adminSource === 'released' ? undefined : { username: 'admin', password: deps.newPassword() });
  const db = resolved.database;
  let database: Credentials | undefined;
  let databaseDenied: string | undefined;
  try {
    database = decodeCredentials(await readSecret(deps, db.namespace, db.credentialsSecret));
  } catch (error) {
    if (!(error instanceof SecretAccessDeniedError)) throw error;
    databaseDenied = error.message;
  }
  const cluster = await deps.kube.get({
    apiVersion: 'postgresql.cnpg.io/v1',
    kind: 'Cluster',
    namespace: db.namespace,
    name: db.cluster,
  });
  return {
    admin,
    identity,
    adminGenerated: adminSource === 'generated',
    adminSource,
    keptAdmin,
    database,
    databaseDenied,
    databaseCluster: observeDatabaseCluster(cluster),
  };
}
