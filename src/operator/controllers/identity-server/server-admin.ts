// What lets the operator into a server's Keycloak outlives the server. Keycloak reads bootstrap credentials only on
// an empty database, so a password generated for a database that already has its admin can never work. Until the
// operator's own identity exists, the operator keeps a copy of the bootstrap admin beside the database (Secret
// <cluster>-<database>-keycloak-admin in the database's namespace, with no owner, so it survives the
// IdentityServer) and restores <server>-admin-credentials from it. Once its identity exists (a client in
// <server>-operator-client), it keeps that identity there instead (<cluster>-<database>-realmforge-operator,
// operator-client.ts), deletes the copy of the bootstrap admin and needs <server>-admin-credentials no more: a
// deleted one is not re-created (the pods name it as optional, so nothing restarts). With none of them and a server that ran before,
// nothing is generated: AdminCredentialsLost says how to get an admin back (kc.sh bootstrap-admin).
import type { KubeObject } from '../../compile/kube-object.ts';
import { labelValue, objectName } from '../../compile/names.ts';
import type { ResolvedServer } from '../../compile/resolved-server.ts';
import { keptIdentitySecret, keptIdentitySecretName } from '../../keycloak/operator-client.ts';
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
export const readKeptAdmin = (deps: Deps, r: ResolvedServer) => readKept(deps, r, keptAdminSecretName(r));

/** A Secret kept beside the database (undefined when absent or not readable). */
export async function readKept(deps: Deps, r: ResolvedServer, name: string): Promise<KubeObject | undefined> {
  try {
    return await readSecret(deps, r.database.namespace, name);
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

/**
 * Once the operator's identity exists: keeps it beside the database and deletes the copy of the bootstrap admin;
 * before: keeps the bootstrap admin (keepAdmin). Returns what it applied or deleted.
 */
export async function keepAccess(
  deps: Deps,
  r: ResolvedServer,
  world: { admin?: Credentials; identity?: Record<string, string>; keptAdmin?: KubeObject },
): Promise<string[]> {
  if (!world.identity) return world.admin ? keepAdmin(deps, r, world.admin, world.keptAdmin) : [];
  const want = withAppliedHash(keptIdentitySecret(r.database, world.identity));
  const live = await readKept(deps, r, keptIdentitySecretName(r.database));
  const done: string[] = [];
  const reason = applyReason(want, live);
  try {
    if (reason) {
      await deps.kube.apply(want);
      done.push(`Secret ${r.database.namespace}/${keptIdentitySecretName(r.database)} (${reason})`);
    }
    if (world.keptAdmin) {
      const name = keptAdminSecretName(r);
      await deps.kube.delete({ apiVersion: 'v1', kind: 'Secret', namespace: r.database.namespace, name });
      done.push(`deleted Secret ${r.database.namespace}/${name} (the bootstrap admin is not kept)`);
    }
  } catch (error) {
    deps.logger.warn(
      `cannot keep the operator's identity beside the database: ${(error as Error).message}`,
      {},
    );
  }
  return done;
}

/** The credentials of the kept copy, if complete. */
export const keptCredentials = (live: KubeObject | undefined) => decodeCredentials(live);

/** What to tell a user whose admin credentials are gone, with the exact steps. */
export function adminLostMessage(r: ResolvedServer): string {
  const ns = r.namespace;
  return `Secret ${ns}/${r.adminSecretName} is gone and no copy is kept beside the database (${r.database.namespace}/${keptAdminSecretName(r)}); Keycloak only reads bootstrap credentials on an empty database, so a new password would never work and none is generated. To recover: (1) if you know the admin's password, kubectl create secret generic ${r.adminSecretName} -n ${ns} --from-literal=username=<user> --from-literal=password=<password>; (2) otherwise, on Keycloak 26 or newer, create a temporary admin in the same database: kubectl exec -it -n ${ns} deploy/${r.name} -- /opt/keycloak/bin/kc.sh bootstrap-admin user --username temp-admin (it asks for a password), then create the Secret as in (1) with those values. The operator retries every few seconds.`;
}
