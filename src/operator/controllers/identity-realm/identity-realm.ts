// The IdentityRealm controller: refuses master and namespaces the server does not grant, waits for its
// IdentityServer to be Ready, refuses a realm of its name that is not its own (RealmNameConflict), keeps its own
// realm in Keycloak equal to the resource (drift revert on every reconcile, and every --drift-interval), reports
// status, and on deletion removes the realm (deletionPolicy Delete) or leaves it (Retain).
//
// Deletion never leaks and never hangs forever: when the IdentityServer is gone or being deleted there is nothing
// to clean up and the finalizer is released at once; when the server exists but is not Ready or does not answer,
// cleanup is retried with backoff for cleanupGiveUpMs (5 minutes by default), then released with a Warning event
// naming the realm left.
import type { IdentityRealm } from '../../../../generated/types/crds/identityrealm.ts';
import type { IdentityServer } from '../../../../generated/types/crds/identityserver.ts';
import { RealmforgeError } from '../../../core/errors.ts';
import { serverKeytabs } from '../../compile/kerberos-keytabs.ts';
import type { KubeObject } from '../../compile/kube-object.ts';
import { realmNameOf } from '../../compile/realm-representation.ts';
import { majorVersion, serverUrls } from '../../compile/resolved-server.ts';
import { createdCursor, fingerprint, signalGap, unreportedReads } from '../../keycloak/change-detection.ts';
import { clientPolicyRefusals } from '../../keycloak/collections/client-policies.ts';
import { ItemConflictError } from '../../keycloak/collections/collection.ts';
import { deleteRealm } from '../../keycloak/collections/realm.ts';
import { declaresBuiltInSections } from '../../keycloak/collections/realm-create-builtins.ts';
import type { KeycloakDeps } from '../../keycloak/keycloak-deps.ts';
import { realmTemplate } from '../../keycloak/realm-template.ts';
import { KeycloakReasonError } from '../../keycloak/reason-error.ts';
import { serverInfo } from '../../keycloak/server-info.ts';
import { readSecretKey, SecretAccessDeniedError } from '../../runtime/read-secret.ts';
import { deletionRequestedAt, ensureFinalizer, releaseFinalizer } from '../shared/finalizer.ts';
import { observedVerdict, observeOnly, observeSync } from '../shared/observe.ts';
import { getResource, getServer, serverKeyOf } from '../shared/owner-server.ts';
import { type Phase, phaseStatus, writeStatus } from '../shared/resource-status.ts';
import { StuckError } from '../shared/stuck-error.ts';
import { federationSecrets } from './federation-secrets.ts';
import { federationProblem, federationStatus, requestedSync } from './federation-status.ts';
import { readWithIdentity } from './realm-identity-check.ts';
import { realmOwnership, realmRefusal } from './realm-ownership.ts';
import { syncRealm } from './realm-sync.ts';
import { serverHashKey } from './server-hash-key.ts';

/** What a realm reconcile did, for its log line. */
export type RealmOutcome = { phase?: string; reason?: string; writes?: string[] };

const defaultGiveUpMs = 5 * 60_000;
/** How often a federation provider that passed its check is checked again when nothing about it changed. */
const defaultCheckMs = 30 * 60_000;

/** The issuer URL of a realm: the server's public URL when it has one, else its in-cluster URL. */
export function realmIssuer(server: IdentityServer, realmName: string): string {
  const urls = serverUrls(server);
  return `${urls.public ?? urls.internal}/realms/${encodeURIComponent(realmName)}`;
}

/** Whether a server can answer the admin API. */
export function serverReady(server: IdentityServer | undefined): boolean {
  return server?.status?.phase === 'Ready' && deletionRequestedAt(server) === undefined;
}

/**
 * Deletion removes the realm from Keycloak only when it is this resource's (owner marker), the namespace is still
 * granted and the name is not master. A server that is gone or being deleted releases at once; one that is not
 * Ready or does not answer is retried with backoff for cleanupGiveUpMs, then given up with CleanupAbandoned.
 */
async function finalize(deps: KeycloakDeps, realm: IdentityRealm, server: IdentityServer | undefined) {
  const name = realmNameOf(realm);
  const ns = realm.metadata.namespace ?? 'default';
  const cleanup =
    (realm.spec.deletionPolicy ?? 'Delete') === 'Delete' &&
    !observeOnly(realm) &&
    server !== undefined &&
    deletionRequestedAt(server) === undefined &&
    realmRefusal(realm, server) === undefined;
  if (cleanup) {
    try {
      if (!serverReady(server)) {
        throw new RealmforgeError(
          'transient',
          `IdentityServer ${serverKeyOf(realm)} is not Ready (phase ${server.status?.phase ?? 'none'}); realm ${name} is deleted from Keycloak once it is`,
        );
      }
      const admin = await deps.admins.forServer(server);
      // A realm the operator may not even read is not its own: nothing to delete.
      const { live } = await readWithIdentity(admin, realm).catch((error: unknown) => {
        if (error instanceof StuckError) return { live: undefined };
        throw error;
      });
      if (realmOwnership(realm, live).state === 'ours') await deleteRealm(admin, ns, name);
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

/** Reads the SMTP password; a forbidden read becomes SecretAccessDenied, a missing key a validation error. */
export async function smtpPasswordOf(deps: KeycloakDeps, realm: IdentityRealm) {
  const ref = realm.spec.smtp?.passwordSecretRef;
  if (!ref) return undefined;
  const ns = realm.metadata.namespace ?? 'default';
  try {
    return await readSecretKey(deps, ns, ref, 'spec.smtp.passwordSecretRef');
  } catch (error) {
    if (!(error instanceof RealmforgeError && error.kind === 'auth')) throw error;
    throw new StuckError(
      'auth',
      'Pending',
      'SecretAccessDenied',
      `spec.smtp.passwordSecretRef: ${error.message}`,
      {
        cause: error,
      },
    );
  }
}

const matches = (name: string) => `realm ${name} exists in Keycloak and matches the resource`;
/** The change signal a realm's resync may use: none for a realm not made yet (nothing to read), an observed one
 * (the operator turns admin events on only where it writes) or one whose spec turns admin events off. */
const signalFor = (deps: KeycloakDeps, realm: IdentityRealm) =>
  realm.status?.realmId && !observeOnly(realm) && !signalGap(realm.spec) ? deps.changes : undefined;

/** Whether the realm has federation, whose checks run once per check interval (federation-status.ts). */
const federated = (realm: IdentityRealm) =>
  Boolean(realm.spec.identityProviders?.length || realm.spec.userFederation);

/** What a realm's resync is asked for: the resource (a sync request included), its Secrets, its server, the key. */
const realmFingerprint = (realm: IdentityRealm, server: IdentityServer, secrets: object, identity: string) =>
  fingerprint([
    realm.metadata.generation,
    realm.spec,
    requestedSync(realm),
    secrets,
    server.metadata.generation,
    server.status?.version,
    serverKeytabs(server),
    identity,
  ]);

/** Creates the IdentityRealm reconciler. */
export function identityRealmController(deps: KeycloakDeps) {
  return async function reconcile(key: string): Promise<{ requeueAfterMs?: number; outcome?: RealmOutcome }> {
    const realm = await getResource<IdentityRealm>(deps, 'IdentityRealm', key);
    const consumer = `IdentityRealm ${key}`;
    if (!realm) {
      deps.changes?.forget(consumer);
      return {};
    }
    const object = realm as unknown as KubeObject;
    const server = await getServer(deps, serverKeyOf(realm));
    if (deletionRequestedAt(realm) !== undefined) return finalize(deps, realm, server);
    await ensureFinalizer(deps, object);
    const now = new Date(deps.clock.now());
    const realmName = realmNameOf(realm);
    const ns = realm.metadata.namespace ?? 'default';
    // The federation status is kept while a reconcile fails, so a requested sync is not run twice.
    const base = {
      realmName,
      authorizedNamespaces: realm.spec.clientAuthorizationGrants ?? [],
      federation: (realm as { status?: { federation?: unknown } }).status?.federation,
    };
    const requeueAfterMs = deps.driftIntervalMs;
    const checkMs = deps.federationCheckIntervalMs ?? Math.max(deps.driftIntervalMs, defaultCheckMs);
    const report = async (phase: Phase, reason: string, message: string, extra = {}) => {
      await writeStatus(
        deps,
        object,
        phaseStatus(object, phase, reason, message, { ...base, ...extra }, now, deps.readyGraceMs),
      );
      return { requeueAfterMs, outcome: { phase, reason } };
    };
    const refusal = server ? realmRefusal(realm, server) : undefined;
    if (refusal) return report(refusal.phase, refusal.reason, refusal.message);
    if (!server || !serverReady(server)) {
      const message = server
        ? `IdentityServer ${serverKeyOf(realm)} is not Ready (phase ${server.status?.phase ?? 'none'})`
        : `IdentityServer ${serverKeyOf(realm)} does not exist`;
      return report('Pending', 'ServerNotReady', message);
    }
    try {
      const smtpPassword = await smtpPasswordOf(deps, realm);
      const federation = await federationSecrets(deps, realm);
      const named = smtpPassword !== undefined || federation.ldap.size || federation.identityProviders.size;
      const hashKey = named ? await serverHashKey(deps, server) : undefined;
      const keycloakMajor = majorVersion(server.status?.version ?? server.spec.image?.tag ?? '26');
      const admin = await deps.admins.forServer(server);
      if (realm.spec.clientPolicies) {
        const refused = clientPolicyRefusals(realm.spec, await serverInfo(admin, ns, deps.clock));
        if (refused.length) return await report('Failed', 'InvalidSpec', refused.join('; '));
      }
      // Nothing changed since a clean resync (change-detection.ts): one cursor read instead of every section.
      const signal = signalFor(deps, realm);
      const fp = realmFingerprint(
        realm,
        server,
        { smtpPassword, federation, hashKey },
        admin.realmSecret(realmName),
      );
      const options = { reads: true, unreported: unreportedReads(realmName, realm.spec) };
      const check = await signal?.check<object>(admin, ns, realmName, consumer, fp, options);
      if (check?.unchanged) return await report('Ready', 'Ready', matches(realmName), check.memo);
      signal?.forget(consumer);
      const { live, restored, readBy } = await readWithIdentity(admin, realm, {
        restore: !observeOnly(realm),
      });
      const ownership = realmOwnership(realm, live);
      if (ownership.state === 'conflict')
        return await report('Failed', 'RealmNameConflict', ownership.message);
      // Authenticators are checked against what the server offers (read once per server per ten minutes).
      const info = realm.spec.authenticationFlows?.length
        ? await serverInfo(admin, ns, deps.clock)
        : undefined;
      const inputs = {
        smtpPassword,
        hashKey,
        live,
        federation,
        keytabs: serverKeytabs(server),
        keycloakMajor,
        keycloakVersion: server.status?.version,
        clock: deps.clock,
        realmIdentitySecret: admin.realmSecret(realmName),
        ...(info ? { serverInfo: info } : {}),
        // A new realm's create call carries its flows, required actions and scopes with Keycloak's own; flows only
        // once their authenticators are checked (the steps' calls check each one; an import is not known to).
        ...(!live && !observeOnly(realm) && declaresBuiltInSections(realm.spec) && info?.known !== false
          ? {
              template: await realmTemplate(admin.master, ns, server.status?.version, (why) =>
                deps.logger.warn(why, {}),
              ),
            }
          : {}),
      };
      const issuer = realmIssuer(server, realmName);
      if (observeOnly(realm)) {
        if (!live)
          return await report(
            'Pending',
            'ObservedAbsent',
            `realm ${realmName} does not exist in Keycloak; nothing is created while spec.managementPolicy is Observe`,
          );
        // Read again through the observing client, which names an update's fields against what it read.
        const { live: _, ...unread } = inputs;
        const o = await observeSync(readBy ?? admin, (a) => syncRealm(a, realm, unread));
        const v = observedVerdict(`realm ${realmName}`, o);
        const extra = { realmId: live.id, issuer, differences: o.differences };
        return await report(v.phase, v.reason, v.message, extra);
      }
      const result = await syncRealm(admin, realm, inputs);
      const status = await federationStatus(admin, realm, result.ldapIds, federation, {
        written: result.written ?? new Set(),
        now: deps.clock.now(),
        intervalMs: checkMs,
      });
      const extra = { realmId: result.realmId, issuer, federation: status };
      const problem = federationProblem(status);
      if (problem) {
        const message = `realm ${realmName} matches the resource, but its federation does not work: ${problem}`;
        await report('Provisioning', 'FederationUnavailable', message, extra);
        return {
          requeueAfterMs,
          outcome: { phase: 'Provisioning', reason: 'FederationUnavailable', writes: result.writes },
        };
      }
      const message = `${matches(realmName)}${restored.length ? `; the operator's identity in it was restored (${restored.join('; ')})` : ''}${signalGap(realm.spec) ? `; ${signalGap(realm.spec)}` : ''}`;
      // A pass that wrote is read again next time (its writes may have changed more than it wrote). A realm its
      // create call made whole has no admin event but the operator's own until someone edits it, so it is settled
      // as created.
      const validMs = federated(realm) ? checkMs : undefined;
      if (!result.writes.length && !restored.length && check && !check.unchanged)
        signal?.settle(consumer, fp, check.cursor, extra, validMs);
      if (!live && !signalGap(realm.spec) && result.writes.join() === 'create realm')
        deps.changes?.settle(
          consumer,
          fp,
          createdCursor(admin.baseUrl, realmName, options.unreported),
          extra,
          validMs,
        );
      await report('Ready', restored.length ? 'RealmIdentityRestored' : 'Ready', message, extra);
      return { requeueAfterMs, outcome: { phase: 'Ready', reason: 'Ready', writes: result.writes } };
    } catch (error) {
      if (!(error instanceof RealmforgeError)) throw error;
      if (error instanceof StuckError) return await report(error.phase, error.reason, error.message);
      if (error instanceof KeycloakReasonError)
        return await report('Provisioning', error.reason, error.message);
      if (error instanceof ItemConflictError) return await report('Failed', error.reason, error.message);
      if (error instanceof SecretAccessDeniedError)
        return await report('Pending', 'SecretAccessDenied', error.message);
      if (error.kind === 'validation') return await report('Failed', 'InvalidSpec', error.message);
      const reason = error.kind === 'auth' ? 'KeycloakAuthFailed' : 'KeycloakUnavailable';
      await report('Provisioning', reason, error.message);
      throw error;
    }
  };
}
