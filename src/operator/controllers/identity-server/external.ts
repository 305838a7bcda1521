// An IdentityServer with spec.external: an existing Keycloak the operator did not deploy (the official operator, a
// Helm chart, a VM). Nothing is applied for it (no Deployment, Service, Ingress, database or finalizer); the
// reconcile re-reads its settings (credentials Secret, CA: admins.ts with reload), asks Keycloak for its server
// info with the operator's identity, and reports Ready with the version Keycloak states. Realms and clients on it
// are managed as on a deployed server, with the same ownership rules.
import type {
  IdentityServer,
  IdentityServerStatus,
} from '../../../../generated/types/crds/identityserver.ts';
import { RealmforgeError } from '../../../core/errors.ts';
import { majorVersion, serverUrls } from '../../compile/resolved-server.ts';
import { TokenRefusedError } from '../../keycloak/admin-identity.ts';
import { KeycloakReasonError } from '../../keycloak/reason-error.ts';
import { externalAccess } from '../../keycloak/server-probes.ts';
import { SecretAccessDeniedError } from '../../runtime/read-secret.ts';
import type { ServerDeps } from './identity-server.ts';
import { failedServerStatus, serverVerdictStatus } from './server-status.ts';

/** The lowest Keycloak line the operator supports (as for a deployed server's spec.image.tag). */
const minimumMajor = 25;

function readyStatus(server: IdentityServer, url: string, version: string | undefined, now: Date) {
  const message = `Keycloak ${version ?? '(version not reported)'} at ${url} accepts the operator's identity; it is an existing Keycloak: the operator deploys nothing for it`;
  const ready = (type: string) => ({ type, status: 'False' as const, reason: 'Ready', message });
  const verdict = { phase: 'Ready' as const, reason: 'Ready', message };
  const status: IdentityServerStatus = {
    ...serverVerdictStatus(server, verdict, [ready('Degraded'), ready('Progressing')], now),
    endpoints: { internal: url },
    adminSecret: server.spec.external?.credentialsSecret,
  };
  if (version) status.version = version;
  return status;
}

/** The status of an existing Keycloak: Ready when it answers the operator's identity, else why not. */
export async function reconcileExternal(
  deps: ServerDeps,
  server: IdentityServer,
  now: Date,
): Promise<IdentityServerStatus> {
  const ns = server.metadata.namespace ?? 'default';
  const url = serverUrls(server).internal;
  const failed = (reason: string, message: string, phase: IdentityServerStatus['phase'] = 'Failed') => ({
    ...failedServerStatus(server, reason, message, now, phase, deps.readyGraceMs),
    endpoints: { internal: url },
    adminSecret: server.spec.external?.credentialsSecret,
  });
  try {
    const admin = await deps.admins.forServer(server, { reload: true });
    const access = await externalAccess(admin, ns, admin.statedVersion());
    if ('masterStatus' in access && access.masterStatus !== 200)
      return failed(
        'KeycloakAuthFailed',
        `Keycloak at ${url} answered GET master with HTTP ${access.masterStatus}`,
      );
    const version = 'version' in access ? access.version : server.status?.version;
    if (version && majorVersion(version) < minimumMajor) {
      return failed(
        'UnsupportedVersion',
        `Keycloak at ${url} is ${version}, below the minimum version 25.0.0: upgrade it, or manage it without realmforge`,
      );
    }
    return readyStatus(server, url, version, now);
  } catch (error) {
    if (error instanceof SecretAccessDeniedError)
      return failed('SecretAccessDenied', error.message, 'Pending');
    if (error instanceof KeycloakReasonError) return failed(error.reason, error.message);
    if (error instanceof TokenRefusedError) return failed('KeycloakAuthFailed', error.message);
    if (error instanceof RealmforgeError && error.kind === 'auth')
      return failed('KeycloakAuthFailed', error.message);
    if (error instanceof RealmforgeError)
      return failed('KeycloakUnavailable', `Keycloak at ${url}: ${error.message}`, 'Provisioning');
    throw error;
  }
}
