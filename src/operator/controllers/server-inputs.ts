// Reads what an IdentityServer compile needs from the cluster: the admin credentials (generated once, then read
// back from <name>-admin-credentials forever after), the database credentials Secret in the database namespace,
// and the CNPG Cluster. Forbidden reads become a missing Secret with a message naming the RoleBinding to create.
import { RealmforgeError } from '../../core/errors.ts';
import type { KubeObject } from '../compile/kube-object.ts';
import type { ResolvedServer } from '../compile/resolved-server.ts';
import type { Deps } from '../runtime/deps.ts';
import { type DatabaseClusterObservation, observeDatabaseCluster } from './server-stuck.ts';

/** Credentials as the compile takes them. */
export type Credentials = { username: string; password: string };

/** What was read: the admin credentials to keep, the database credentials if found, the Cluster observation. */
export type ServerWorld = {
  readonly admin: Credentials;
  readonly adminGenerated: boolean;
  readonly database?: Credentials;
  readonly databaseCluster: DatabaseClusterObservation;
};

function decode(secret: KubeObject | undefined): Credentials | undefined {
  const data = secret?.data as Record<string, string> | undefined;
  if (!data?.username || !data.password) return undefined;
  const text = (b64: string) => Buffer.from(b64, 'base64').toString('utf8');
  return { username: text(data.username), password: text(data.password) };
}

async function readSecret(deps: Deps, namespace: string, name: string): Promise<KubeObject | undefined> {
  try {
    return await deps.kube.get({ apiVersion: 'v1', kind: 'Secret', namespace, name });
  } catch (error) {
    if (error instanceof RealmforgeError && error.kind === 'auth') {
      throw new RealmforgeError(
        'auth',
        `cannot read Secret ${namespace}/${name}: bind ClusterRole keycloak-operator-namespace-access to the operator's ServiceAccount in namespace ${namespace}`,
        { cause: error },
      );
    }
    throw error;
  }
}

/** Reads the world of one server; never generates a new admin password when one is stored. */
export async function readServerWorld(deps: Deps, resolved: ResolvedServer): Promise<ServerWorld> {
  const stored = decode(await readSecret(deps, resolved.namespace, resolved.adminSecretName));
  const admin = stored ?? { username: 'admin', password: deps.newPassword() };
  const db = resolved.database;
  let database: Credentials | undefined;
  try {
    database = decode(await readSecret(deps, db.namespace, db.credentialsSecret));
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
