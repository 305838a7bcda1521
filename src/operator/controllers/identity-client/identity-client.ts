// The IdentityClient controller. Its realm (realmRef.namespace defaults to the client's namespace) must be Ready
// and must grant the client's namespace, or nothing is created in Keycloak (and a client whose namespace lost its
// grant is disabled). Then the client is created or corrected, and its credentials Secret is written. Problems a
// person must fix (an ungranted namespace, a taken client ID, a Secret in the way, no Secret access) are reported
// on status and looked at again every drift interval, never retried in a tight loop.
import type { IdentityClient } from '../../../../generated/types/crds/identityclient.ts';
import type { IdentityRealm } from '../../../../generated/types/crds/identityrealm.ts';
import { RealmforgeError } from '../../../core/errors.ts';
import { clientIdOf, hasSecret, isSaml } from '../../compile/client-representation.ts';
import type { KubeObject } from '../../compile/kube-object.ts';
import { realmNameOf } from '../../compile/realm-representation.ts';
import { serverUrls } from '../../compile/resolved-server.ts';
import type { AdminClient } from '../../keycloak/admin-client.ts';
import { readClientSecret } from '../../keycloak/collections/client-secret.ts';
import { ItemConflictError } from '../../keycloak/collections/collection.ts';
import type { KeycloakDeps } from '../../keycloak/keycloak-deps.ts';
import { realmSigningCertificate } from '../../keycloak/realm-keys.ts';
import { KeycloakReasonError } from '../../keycloak/reason-error.ts';
import { serverInfo } from '../../keycloak/server-info.ts';
import { SecretAccessDeniedError, secretValue } from '../../runtime/read-secret.ts';
import { realmIssuer, serverReady } from '../identity-realm/identity-realm.ts';
import { deletionRequestedAt, ensureFinalizer, releaseFinalizer } from '../shared/finalizer.ts';
import { observedVerdict, observeOnly, observeSync } from '../shared/observe.ts';
import { getRealm, getResource, getServer, realmKeyOf, serverKeyOf } from '../shared/owner-server.ts';
import { type Phase, phaseStatus, writeStatus } from '../shared/resource-status.ts';
import { StuckError } from '../shared/stuck-error.ts';
import {
  credentialsSecret,
  credentialsSecretName,
  readCredentialsSecret,
  realmEndpoints,
  removeCredentialsSecret,
  samlEndpoints,
  secretConflict,
  syncCredentialsSecret,
} from './client-credentials.ts';
import { clientInputs } from './client-inputs.ts';
import { deleteClient, disableClient, syncClient } from './client-sync.ts';
import { roleRefusalMessage, ungrantedClientRoles } from './role-grants.ts';
import { rotateSecret } from './secret-rotation.ts';
import { serverRefusals } from './server-checks.ts';

/** What a client reconcile did, for its log line. */
export type ClientOutcome = { phase?: string; reason?: string; writes?: string[] };

const defaultGiveUpMs = 5 * 60_000;

/** The realm's admin client and Keycloak name, when the realm and its server are Ready. */
async function realmAccess(deps: KeycloakDeps, realm: IdentityRealm | undefined) {
  if (!realm) return undefined;
  if (realm.status?.phase !== 'Ready' || deletionRequestedAt(realm) !== undefined) return undefined;
  const server = await getServer(deps, serverKeyOf(realm));
  if (!server || !serverReady(server)) return undefined;
  return { server, realmName: realmNameOf(realm), admin: await deps.admins.forServer(server) };
}

/**
 * Deletion: the client is removed from Keycloak unless its realm or server is itself gone or being deleted (then
 * nothing is left to clean up, or the realm's own deletion takes the client with it). A Keycloak that is not Ready
 * or does not answer is retried with backoff for cleanupGiveUpMs, then given up with a CleanupAbandoned event.
 */
async function finalize(deps: KeycloakDeps, client: IdentityClient, realm: IdentityRealm | undefined) {
  const server =
    realm && deletionRequestedAt(realm) === undefined ? await getServer(deps, serverKeyOf(realm)) : undefined;
  if (
    (client.spec.deletionPolicy ?? 'Delete') === 'Delete' &&
    !observeOnly(client) &&
    realm &&
    server &&
    deletionRequestedAt(server) === undefined
  ) {
    try {
      if (!serverReady(server)) {
        throw new RealmforgeError(
          'transient',
          `IdentityServer ${serverKeyOf(realm)} is not Ready (phase ${server.status?.phase ?? 'none'}); the client is deleted from Keycloak once it is`,
        );
      }
      await deleteClient(await deps.admins.forServer(server), realmNameOf(realm), client);
    } catch (error) {
      const since = deletionRequestedAt(client) ?? deps.clock.now();
      if (deps.clock.now() - since < (deps.cleanupGiveUpMs ?? defaultGiveUpMs)) throw error;
      await deps.kube.event(client as unknown as KubeObject, {
        type: 'Warning',
        reason: 'CleanupAbandoned',
        message: `could not delete client ${clientIdOf(client)} from realm ${realmNameOf(realm)} in Keycloak (${(error as Error).message}); it is left there`,
      });
    }
  }
  await releaseFinalizer(deps, client as unknown as KubeObject);
  return { outcome: { phase: 'Deleted' } };
}

/** The secret to publish: the one this reconcile knows or the Secret holds, else Keycloak's (one read). */
async function clientSecretOf(
  admin: AdminClient,
  client: IdentityClient,
  realm: string,
  uuid: string,
  known?: string,
  stored?: string,
) {
  if (!hasSecret(client)) return undefined;
  if (known ?? stored) return known ?? stored;
  return readClientSecret(admin, client.metadata.namespace ?? 'default', realm, uuid);
}

/** Creates the IdentityClient reconciler. */
export function identityClientController(deps: KeycloakDeps) {
  return async function reconcile(
    key: string,
  ): Promise<{ requeueAfterMs?: number; outcome?: ClientOutcome }> {
    const client = await getResource<IdentityClient>(deps, 'IdentityClient', key);
    if (!client) return {};
    const object = client as unknown as KubeObject;
    const realmKey = realmKeyOf(client);
    const realm = await getRealm(deps, realmKey);
    if (deletionRequestedAt(client) !== undefined) return finalize(deps, client, realm);
    await ensureFinalizer(deps, object);
    const ns = client.metadata.namespace ?? 'default';
    const clientId = clientIdOf(client);
    const now = new Date(deps.clock.now());
    const requeueAfterMs = deps.driftIntervalMs;
    const report = async (
      phase: Phase,
      reason: string,
      message: string,
      extra: Record<string, unknown> = {},
    ) => {
      await writeStatus(
        deps,
        object,
        phaseStatus(object, phase, reason, message, { clientId, ...extra }, now, deps.readyGraceMs),
      );
      return { requeueAfterMs, outcome: { phase, reason } };
    };
    try {
      const access = await realmAccess(deps, realm);
      if (!access) {
        const why = realm ? `is not Ready (phase ${realm.status?.phase ?? 'none'})` : 'does not exist';
        return await report('Pending', 'RealmNotReady', `IdentityRealm ${realmKey} ${why}`);
      }
      const { admin, realmName, server } = access;
      const observing = observeOnly(client);
      if (!(realm?.spec.clientAuthorizationGrants ?? []).includes(ns)) {
        if (observing)
          return await report(
            'Pending',
            'NamespaceNotAuthorized',
            `namespace ${ns} is not in spec.clientAuthorizationGrants of IdentityRealm ${realmKey}: nothing is observed`,
          );
        const { disabled, wrote } = await disableClient(admin, realmName, client);
        const removed = await removeCredentialsSecret(deps, client);
        const message = `namespace ${ns} is not in spec.clientAuthorizationGrants of IdentityRealm ${realmKey}${disabled ? '; its existing client is disabled in Keycloak' : ''}${removed ? ` and its credentials Secret ${credentialsSecretName(client)} is deleted` : ''}: add it there to create this client`;
        const outcome = await report('Pending', 'NamespaceNotAuthorized', message);
        const writes = [
          ...(wrote ? ['disable client'] : []),
          ...(removed ? ['delete credentials Secret'] : []),
        ];
        return { ...outcome, outcome: { ...outcome.outcome, writes } };
      }
      const refused = realm ? ungrantedClientRoles(client, realm) : [];
      if (refused.length)
        return await report('Failed', 'RoleNotAuthorized', roleRefusalMessage(client, realmKey, refused));
      // Keycloak states its version only to master admins: the server's status knows it too.
      const info = await serverInfo(admin, ns, deps.clock);
      const refusals = serverRefusals(client, { ...info, version: info.version ?? server.status?.version });
      if (refusals.length) return await report('Failed', 'InvalidSpec', refusals.join('; '));
      // Read the Secret first: without access to it nothing is created in Keycloak.
      const live = await readCredentialsSecret(deps, client);
      if (observing) {
        const inputs = await clientInputs(deps, client);
        const stored = secretValue(live, 'client-secret');
        const o = await observeSync(admin, (a) => syncClient(a, realmName, client, stored, inputs));
        const v = observedVerdict(`client ${clientId} in realm ${realmName}`, o);
        return await report(v.phase, v.reason, v.message, { differences: o.differences });
      }
      const conflict = await secretConflict(deps, client, live);
      if (conflict) return await report('Failed', 'SecretConflict', conflict);
      // A client deleted by hand in Keycloak comes back with the secret its applications already hold.
      const stored = secretValue(live, 'client-secret');
      const secret = stored ?? (hasSecret(client) ? deps.newPassword() : undefined);
      const sync = await syncClient(admin, realmName, client, secret, await clientInputs(deps, client));
      const rotation = await rotateSecret(deps, admin, realmName, client, { ...sync, clientId });
      sync.writes.push(...rotation.writes);
      const urls = serverUrls(server);
      const endpoints = realmEndpoints(urls.public ?? urls.internal, realmIssuer(server, realmName));
      const saml = isSaml(client)
        ? {
            ...samlEndpoints(endpoints.issuer),
            signingCertificate: await realmSigningCertificate(admin, ns, realmName),
          }
        : undefined;
      const known = rotation.secret ?? sync.secret;
      const clientSecret = await clientSecretOf(admin, client, realmName, sync.uuid, known, stored);
      const desired = credentialsSecret(client, {
        clientId,
        clientSecret,
        realm: realmName,
        endpoints,
        saml,
      });
      if (await syncCredentialsSecret(deps, desired, live)) sync.writes.push('credentials Secret');
      await rotation.announce?.();
      const { keycloakUrl: _, ...oidcEndpoints } = endpoints;
      const statusEndpoints = saml
        ? { issuer: endpoints.issuer, samlMetadata: saml.metadataUrl, samlSso: saml.ssoUrl }
        : oidcEndpoints;
      const extra = {
        clientUuid: sync.uuid,
        credentialsSecret: credentialsSecretName(client),
        endpoints: statusEndpoints,
        ...(sync.authorization ? { authorization: sync.authorization } : {}),
      };
      await report('Ready', 'Ready', `client ${clientId} is ready in realm ${realmName}`, extra);
      // A rotation due before the next drift check is not left waiting for it.
      const next = Math.min(requeueAfterMs, Math.max(rotation.nextInMs ?? requeueAfterMs, 1000));
      return { requeueAfterMs: next, outcome: { phase: 'Ready', reason: 'Ready', writes: sync.writes } };
    } catch (error) {
      if (!(error instanceof RealmforgeError)) throw error;
      if (error instanceof StuckError) return await report(error.phase, error.reason, error.message);
      if (error instanceof KeycloakReasonError)
        return await report('Provisioning', error.reason, error.message);
      if (error instanceof SecretAccessDeniedError)
        return await report('Pending', 'SecretAccessDenied', error.message);
      if (error instanceof ItemConflictError) return await report('Failed', error.reason, error.message);
      if (error.kind === 'validation') return await report('Failed', 'InvalidSpec', error.message);
      await report('Provisioning', 'KeycloakUnavailable', error.message).catch(() => undefined);
      throw error;
    }
  };
}
