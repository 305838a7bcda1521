// The IdentityRealm controller: waits for its IdentityServer to be Ready, keeps the realm in Keycloak equal to
// the resource (drift revert on every reconcile, and every --drift-interval), reports status, and on deletion
// removes the realm (deletionPolicy Delete) or leaves it (Retain).
//
// Deletion never hangs forever: when the IdentityServer is gone or being deleted there is nothing to clean up and
// the finalizer is released at once; when the server exists but Keycloak does not answer, cleanup is retried with
// backoff for cleanupGiveUpMs (5 minutes by default) and then released with a Warning event naming the realm left.
import type { IdentityRealm } from '../../../../generated/types/crds/identityrealm.ts';
import type { IdentityServer } from '../../../../generated/types/crds/identityserver.ts';
import { RealmforgeError } from '../../../core/errors.ts';
import type { KubeObject } from '../../compile/kube-object.ts';
import { realmNameOf } from '../../compile/realm-representation.ts';
import { resolveServer, serverEndpoints } from '../../compile/resolved-server.ts';
import type { KeycloakDeps } from '../../keycloak/keycloak-deps.ts';
import { readSecretKey } from '../../runtime/read-secret.ts';
import { deletionRequestedAt, ensureFinalizer, releaseFinalizer } from '../shared/finalizer.ts';
import { getResource, getServer, serverKeyOf } from '../shared/owner-server.ts';
import { phaseStatus, writeStatus } from '../shared/resource-status.ts';
import { syncRealm } from './realm-sync.ts';

/** What a realm reconcile did, for its log line. */
export type RealmOutcome = { phase?: string; reason?: string; writes?: string[] };

const defaultGiveUpMs = 5 * 60_000;

/** The issuer URL of a realm: the server's public URL when it has one, else its in-cluster URL. */
export function realmIssuer(server: IdentityServer, realmName: string): string {
  const urls = serverEndpoints(resolveServer(server));
  return `${urls.public ?? urls.internal}/realms/${encodeURIComponent(realmName)}`;
}

/** Whether a server can take admin calls. */
export function serverReady(server: IdentityServer | undefined): boolean {
  return server?.status?.phase === 'Ready' && deletionRequestedAt(server) === undefined;
}

async function finalize(deps: KeycloakDeps, realm: IdentityRealm, server: IdentityServer | undefined) {
  const name = realmNameOf(realm);
  if (
    (realm.spec.deletionPolicy ?? 'Delete') === 'Delete' &&
    server &&
    deletionRequestedAt(server) === undefined
  ) {
    try {
      const admin = await deps.admins.forServer(server);
      await admin.call(realm.metadata.namespace ?? 'default', 'DELETE', `/${encodeURIComponent(name)}`);
    } catch (error) {
      const since = deletionRequestedAt(realm) ?? deps.clock.now();
      if (deps.clock.now() - since < (deps.cleanupGiveUpMs ?? defaultGiveUpMs)) throw error;
      await deps.kube.event(realm as unknown as KubeObject, {
        type: 'Warning',
        reason: 'CleanupAbandoned',
        message: `could not delete realm ${name} from Keycloak (${(error as Error).message}); it is left there`,
      });
    }
  }
  await releaseFinalizer(deps, realm as unknown as KubeObject);
  return { outcome: { phase: 'Deleted', writes: [] } };
}

/** Creates the IdentityRealm reconciler. */
export function identityRealmController(deps: KeycloakDeps) {
  return async function reconcile(key: string): Promise<{ requeueAfterMs?: number; outcome?: RealmOutcome }> {
    const realm = await getResource<IdentityRealm>(deps, 'IdentityRealm', key);
    if (!realm) return {};
    const object = realm as unknown as KubeObject;
    const server = await getServer(deps, serverKeyOf(realm));
    if (deletionRequestedAt(realm) !== undefined) return finalize(deps, realm, server);
    await ensureFinalizer(deps, object);
    const now = new Date(deps.clock.now());
    const realmName = realmNameOf(realm);
    const base = { realmName, authorizedNamespaces: realm.spec.clientAuthorizationGrants ?? [] };
    const requeueAfterMs = deps.driftIntervalMs;
    if (!server || !serverReady(server)) {
      const message = server
        ? `IdentityServer ${serverKeyOf(realm)} is not Ready (phase ${server.status?.phase ?? 'none'})`
        : `IdentityServer ${serverKeyOf(realm)} does not exist`;
      const status = phaseStatus(object, 'Pending', 'ServerNotReady', message, base, now);
      await writeStatus(deps, object, status);
      return { requeueAfterMs, outcome: { phase: status.phase, reason: status.reason } };
    }
    const ref = realm.spec.smtp?.passwordSecretRef;
    const smtpPassword = ref
      ? await readSecretKey(deps, realm.metadata.namespace ?? 'default', ref)
      : undefined;
    try {
      const admin = await deps.admins.forServer(server);
      const result = await syncRealm(admin, realm, { smtpPassword });
      const issuer = realmIssuer(server, realmName);
      const message = `realm ${realmName} exists in Keycloak and matches the resource`;
      const status = phaseStatus(
        object,
        'Ready',
        'Ready',
        message,
        { ...base, realmId: result.realmId, issuer },
        now,
      );
      await writeStatus(deps, object, status);
      return { requeueAfterMs, outcome: { phase: 'Ready', reason: 'Ready', writes: result.writes } };
    } catch (error) {
      if (!(error instanceof RealmforgeError)) throw error;
      const failed = error.kind === 'validation';
      const reason = failed
        ? ((error as { reason?: string }).reason ?? 'InvalidConfiguration')
        : error.kind === 'auth'
          ? 'KeycloakAuthFailed'
          : 'KeycloakUnavailable';
      const status = phaseStatus(
        object,
        failed ? 'Failed' : 'Provisioning',
        reason,
        error.message,
        base,
        now,
      );
      await writeStatus(deps, object, status);
      if (failed) return { requeueAfterMs, outcome: { phase: status.phase, reason } };
      throw error;
    }
  };
}
