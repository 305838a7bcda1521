// Reads what an IdentityServer compile needs from the cluster: the admin credentials (generated once, then read
// back from <name>-admin-credentials forever after), the database credentials Secret in the database namespace,
// and the CNPG Cluster. Forbidden reads become a missing Secret with a message naming the RoleBinding to create.
import { RealmforgeError } from '../../../core/errors.ts';
import type { ResolvedServer } from '../../compile/resolved-server.ts';
import type { Deps } from '../../runtime/deps.ts';
import { type Credentials, decodeCredentials, readSecret } from '../../runtime/read-secret.ts';
import { type DatabaseClusterObservation, observeDatabaseCluster } from './server-stuck.ts';

/** What was read: the admin credentials to keep, the database credentials if found, the Cluster observation. */
export type ServerWorld = {
  readonly admin: Credentials;
  readonly adminGenerated: boolean;
  readonly database?: Credentials;
  readonly databaseCluster: DatabaseClusterObservation;
};

/** Reads the world of one server; never generates a new admin password when one is stored. */
export async function readServerWorld(deps: Deps, resolved: ResolvedServer): Promise<ServerWorld> {
  const stored = decodeCredentials(await readSecret(deps, resolved.namespace, resolved.adminSecretName));
  const admin = stored ?? { username: 'admin', password: deps.newPassword() };
  const db = resolved.database;
  let database: Credentials | undefined;
  try {
    database = decodeCredentials(await readSecret(deps, db.namespace, db.credentialsSecret));
  } catch (error) {
    if (!(error instanceof RealmforgeError && error.kind === 'auth')) throw error;
    deps.logger.warn(error.message, { namespace: db.namespace });
  }
  const cluster = await deps.kube.get({
    apiVersion: 'postgresql.cnpg.io/v1',
    kind: 'Cluster',
    namespace: db.namespace,
    name: db.cluster,
  });
  return { admin, adminGenerated: !stored, database, databaseCluster: observeDatabaseCluster(cluster) };
}
