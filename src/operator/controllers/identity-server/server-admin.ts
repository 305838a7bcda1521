// The bootstrap admin of a server outlives the server. Keycloak reads bootstrap credentials only on an empty
// database, so a password generated for a database that already has its admin can never work. The operator keeps a
// copy of the admin credentials beside the database (Secret <cluster>-<database>-keycloak-admin in the database's
// namespace, with no owner, so it survives the IdentityServer) and restores <server>-admin-credentials from it when
// that Secret is deleted or the server is re-created on the retained database. With neither and a server that ran
// before, nothing is generated: AdminCredentialsLost says how to get an admin back.
import type { KubeObject } from '../../compile/kube-object.ts';
import { labelValue, objectName } from '../../compile/names.ts';
import type { ResolvedServer } from '../../compile/resolved-server.ts';
import type { Deps } from '../../runtime/deps.ts';
import { applyReason, withAppliedHash } from '../../runtime/desired-state.ts';
import {
  type Credentials,
  decodeCredentials,
  readSecret,
  SecretAccessDeniedError,
} from '../../runtime/read-secret.ts';

/** The name of the copy kept beside the database: a PostgreSQL database name may hold `_` or capitals. */
export const keptAdminSecretName = (r: ResolvedServer) =>
  objectName(
    `${r.database.cluster}-${r.database.name}`.toLowerCase().replace(/[^a-z0-9.-]+/g, '-'),
    '-keycloak-admin',
  );

/** The kept copy: basic-auth, labelled with the database it belongs to, owned by nothing. */
export function keptAdminSecret(r: ResolvedServer, admin: Credentials): KubeObject {
  const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: keptAdminSecretName(r),
      namespace: r.database.namespace,
      labels: {
        'app.kubernetes.io/managed-by': 'realmforge',
        'realmforge.dev/database': labelValue(`${r.database.cluster}.${r.database.name}`),
      },
      annotations: {
        'realmforge.dev/purpose': `Keycloak bootstrap admin of database ${r.database.name} in cluster ${r.database.cluster}; restores <server>-admin-credentials of any IdentityServer on this database`,
      },
    },
    type: 'kubernetes.io/basic-auth',
    data: { password: b64(admin.password), username: b64(admin.username) },
  };
}

/** The kept copy as stored (undefined when absent or not readable: the operator then cannot restore from it). */
export async function readKeptAdmin(deps: Deps, r: ResolvedServer): Promise<KubeObject | undefined> {
  try {
    return await readSecret(deps, r.database.namespace, keptAdminSecretName(r));
  } catch (error) {
    if (!(error instanceof SecretAccessDeniedError)) throw error;
    deps.logger.warn(`cannot read the kept admin credentials: ${error.message}`, {});
    return undefined;
  }
}

/** Writes the kept copy when it is missing or differs; returns what it applied (for the reconcile log). */
export async function keepAdmin(
  deps: Deps,
  r: ResolvedServer,
  admin: Credentials,
  live: KubeObject | undefined,
): Promise<string[]> {
  const want = withAppliedHash(keptAdminSecret(r, admin));
  const reason = applyReason(want, live);
  if (!reason) return [];
  try {
    await deps.kube.apply(want);
  } catch (error) {
    deps.logger.warn(
      `cannot keep the admin credentials beside the database: ${(error as Error).message}`,
      {},
    );
    return [];
  }
  return [`Secret ${r.database.namespace}/${keptAdminSecretName(r)} (${reason})`];
}

/** The credentials of the kept copy, if complete. */
export const keptCredentials = (live: KubeObject | undefined) => decodeCredentials(live);

/** What to tell a user whose admin credentials are gone, with the exact steps. */
export function adminLostMessage(r: ResolvedServer): string {
  const ns = r.namespace;
  return `Secret ${ns}/${r.adminSecretName} is gone and no copy is kept beside the database (${r.database.namespace}/${keptAdminSecretName(r)}); Keycloak only reads bootstrap credentials on an empty database, so a new password would never work and none is generated. To recover: (1) if you know the admin's password, kubectl create secret generic ${r.adminSecretName} -n ${ns} --from-literal=username=<user> --from-literal=password=<password>; (2) otherwise, on Keycloak 26 or newer, create a temporary admin in the same database: kubectl exec -it -n ${ns} deploy/${r.name} -- /opt/keycloak/bin/kc.sh bootstrap-admin user --username temp-admin (it asks for a password), then create the Secret as in (1) with those values. The operator retries every few seconds.`;
}
