// The IdentityServer controller: reconcile(key) reads the world, compiles, applies only what differs, prunes
// children no longer wanted, observes Keycloak and writes status when it changed. Level-triggered: it never
// depends on which event woke it.
import type { V1Deployment, V1PersistentVolumeClaim, V1Pod } from '@kubernetes/client-node';
import type {
  IdentityServer,
  IdentityServerStatus,
} from '../../../../generated/types/crds/identityserver.ts';
import { RealmforgeError } from '../../../core/errors.ts';
import { compileIdentityServer } from '../../compile/identity-server.ts';
import { apiVersion, type KubeObject, serverSelector } from '../../compile/kube-object.ts';
import {
  deployedSpec,
  isExternal,
  type ResolvedServer,
  resolveServer,
  serverEndpoints,
} from '../../compile/resolved-server.ts';
import type { KeycloakAdmins } from '../../keycloak/admins.ts';
import { type ProbeOutcome, probeAdmin, probeHealth } from '../../keycloak/server-probes.ts';
import type { Deps } from '../../runtime/deps.ts';
import { SecretAccessDeniedError } from '../../runtime/read-secret.ts';
import { ensureFinalizer } from '../shared/finalizer.ts';
import { type ResourceStatus, writeStatus } from '../shared/resource-status.ts';
import { StuckError } from '../shared/stuck-error.ts';
import { reconcileExternal } from './external.ts';

import { adminLostMessage, keepAccess } from './server-admin.ts';

import { syncChildren } from './server-children.ts';
import { finishServerDeletion, needsCleanupFinalizer } from './server-cleanup.ts';
import { readServerWorld } from './server-inputs.ts';
import { computeServerStatus, failedServerStatus } from './server-status.ts';
import { type ServerObservation, stuckReason } from './server-stuck.ts';
import { databaseVersion, downgradeRefusal, versionsToStop } from './server-upgrade.ts';

/** How often a server that is not Ready yet is looked at again, since pods and Keycloak are not watched. */
export const notReadyPollMs = 10_000;

/** The annotations that force a full reconcile when set or changed (docs/decisions.md). */
export const reconcileAnnotations = ['reconcile', 'realmforge.dev/reconcile'] as const;

/** What a reconcile did, for its log line. */
export type ServerOutcome = {
  phase?: string;
  reason?: string;
  applied: string[];
  deleted: string[];
  statusWritten: boolean;
};

const skipped: ProbeOutcome = { state: 'skipped' };

/** A server's new status is a Warning event when Failed, Degraded or Ready only as last verified. */
const degraded = (next: ResourceStatus) =>
  next.phase === 'Failed' ||
  (next.phase === 'Ready' && next.reason !== 'Ready') ||
  (next.conditions as { type: string; status: string }[] | undefined)?.some(
    (c) => c.type === 'Degraded' && c.status === 'True',
  ) === true;

function selectorString(labels: Record<string, string>): string {
  return Object.entries(labels)
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
}

/** What the server controller needs: the common Deps and the admin clients its readiness check calls through. */
export type ServerDeps = Deps & { readonly admins: KeycloakAdmins };

async function listPods(deps: Deps, namespace: string, server: IdentityServer): Promise<V1Pod[]> {
  const selector = selectorString(serverSelector(server));
  return (await deps.kube.list({ apiVersion: 'v1', kind: 'Pod' }, namespace, selector)) as unknown as V1Pod[];
}

/** The newer of two reads of one object: a higher generation wins (the write this reconcile just made). */
function newest<T extends KubeObject | V1Deployment>(cached: T | undefined, stored: T | undefined) {
  if (!stored) return cached;
  return (stored.metadata?.generation ?? 0) > (cached?.metadata?.generation ?? 0) ? stored : cached;
}

async function observe(
  deps: ServerDeps,
  resolved: ResolvedServer,
  server: IdentityServer,
  base: Pick<
    ServerObservation,
    'databaseCluster' | 'databaseSecretFound' | 'databaseDenied' | 'stopping' | 'version'
  >,
  stored: readonly KubeObject[],
): Promise<ServerObservation> {
  const ns = resolved.namespace;
  const ref = { apiVersion: 'apps/v1', kind: 'Deployment', namespace: ns, name: resolved.serviceName };
  // The read comes from the watch cache, which may not hold the Deployment this reconcile just applied: its
  // status would then describe the previous spec as complete, and Ready would be reported before the rollout.
  const deployment = newest(
    (await deps.kube.get(ref)) as V1Deployment | undefined,
    stored.find((o) => o.kind === 'Deployment' && o.metadata.name === resolved.serviceName) as
      | V1Deployment
      | undefined,
  );
  const pods = await listPods(deps, ns, server);
  const claimNames = new Set(
    pods.flatMap((p) =>
      (p.spec?.volumes ?? []).flatMap((v) =>
        v.persistentVolumeClaim ? [v.persistentVolumeClaim.claimName] : [],
      ),
    ),
  );
  const claims: V1PersistentVolumeClaim[] = [];
  for (const name of claimNames) {
    const claim = await deps.kube.get({
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      namespace: ns,
      name,
    });
    if (claim) claims.push(claim as V1PersistentVolumeClaim);
  }
  const cluster: ServerObservation = { ...base, deployment, pods, claims, health: skipped, token: skipped };
  // Keycloak is probed only when the cluster alone does not already say why the server is not Ready. Probing a
  // Keycloak that is being stopped (an upgrade) or replaced (a rollout) retries against a dying process for
  // seconds and only delays the status that says so, long enough for the next reconcile to overwrite it unseen.
  const known = stuckReason(resolved, cluster);
  if (known && known.reason !== 'NotChecked') return cluster;
  const urls = serverEndpoints(resolved);
  let health = await probeHealth(deps, urls.management);
  const asked = health.state === 'ok' || (health.state === 'failed' && health.slow);
  const token = asked ? await probeAdmin(deps.admins.forServer(server), ns) : skipped;
  // Slow is not down: a health endpoint that timed out while an admin request succeeds is a loaded Keycloak.
  if (health.state === 'failed' && health.slow && token.state === 'ok') health = { state: 'ok' };
  return { ...cluster, health, token };
}

/** Creates the IdentityServer reconciler; it remembers the last reconcile annotation seen per key. */
export function identityServerController(deps: ServerDeps) {
  const forcedSeen = new Map<string, string>();
  return async function reconcile(
    key: string,
  ): Promise<{ requeueAfterMs?: number; outcome?: ServerOutcome }> {
    const [namespace, name] = key.split('/');
    const server = (await deps.kube.get({
      apiVersion,
      kind: 'IdentityServer',
      namespace,
      name,
    })) as unknown as IdentityServer | undefined;
    if (!server) {
      forcedSeen.delete(key);
      return {}; // children go with it through their owner references
    }
    // Objects in other namespaces (a Database beside its cluster) are deleted here; the rest through owner references.
    const deleted = await finishServerDeletion(deps, server as unknown as KubeObject);
    if (deleted) {
      forcedSeen.delete(key);
      return { outcome: { applied: [], deleted, statusWritten: false } };
    }
    const marker = reconcileAnnotations.map((a) => server.metadata.annotations?.[a] ?? '').join('|');
    const force = marker !== '|' && forcedSeen.get(key) !== marker;
    if (isExternal(server)) {
      const status = await reconcileExternal(deps, server, new Date(deps.clock.now()));
      const statusWritten = await writeStatus(deps, server as never, status as ResourceStatus, degraded);
      forcedSeen.set(key, marker);
      const outcome = { phase: status.phase, reason: status.reason, applied: [], deleted: [], statusWritten };
      // Its Secrets and Keycloak are not watched: a server that is not Ready is looked at again soon.
      return { requeueAfterMs: status.reason === 'Ready' ? undefined : notReadyPollMs, outcome };
    }
    const resolved = resolveServer(server);
    // Before anything is created outside the namespace, so nothing there can outlive the server.
    if (needsCleanupFinalizer(resolved)) await ensureFinalizer(deps, server as unknown as KubeObject);
    const outcome: ServerOutcome = { applied: [], deleted: [], statusWritten: false };
    let stored: KubeObject[] = [];
    let status: IdentityServerStatus;
    const now = new Date(deps.clock.now());
    const downgrade = downgradeRefusal(server);
    const grace = deps.readyGraceMs;
    try {
      if (downgrade) throw new StuckError('validation', 'Failed', 'DowngradeRefused', downgrade);
      const world = await readServerWorld(deps, server, resolved);
      if (world.adminSource === 'lost')
        throw new StuckError('validation', 'Failed', 'AdminCredentialsLost', adminLostMessage(resolved));
      // First provisioning waits for the database; a server that already ran keeps being managed.
      const dbUsable = world.databaseCluster.found && (world.databaseCluster.ready || !world.adminGenerated);
      const stopping = versionsToStop(server, await listPods(deps, resolved.namespace, server));
      const starting = world.database !== undefined && dbUsable && !stopping.length;
      if (world.database && dbUsable) {
        const desired = compileIdentityServer(server, {
          admin: world.admin,
          database: world.database,
          stopped: stopping.length > 0,
        }) as KubeObject[];
        const synced = await syncChildren(
          deps,
          { uid: server.metadata.uid ?? '', namespace: resolved.namespace, name: resolved.name },
          desired,
          force,
        );
        outcome.applied = [...synced.applied, ...(await keepAccess(deps, resolved, world))];
        outcome.deleted = synced.deleted;
        stored = synced.stored;
      }
      const base = {
        databaseCluster: world.databaseCluster,
        databaseSecretFound: world.database !== undefined,
        databaseDenied: world.databaseDenied,
        stopping,
        version: deployedSpec(server).image.tag,
      };
      const obs = await observe(deps, resolved, server, base, stored);
      status = computeServerStatus(server, obs, now, grace);
      const migrated = databaseVersion(server, starting);
      if (migrated) status.databaseVersion = migrated;
    } catch (error) {
      if (error instanceof StuckError) {
        status = failedServerStatus(server, error.reason, error.message, now, error.phase, grace);
      } else if (error instanceof SecretAccessDeniedError) {
        status = failedServerStatus(server, 'SecretAccessDenied', error.message, now, 'Pending', grace);
      } else if (error instanceof RealmforgeError && error.kind === 'validation') {
        status = failedServerStatus(server, 'InvalidSpec', error.message, now, 'Failed', grace);
      } else throw error;
    }
    outcome.statusWritten = await writeStatus(
      deps,
      server as unknown as KubeObject & { status?: Record<string, unknown> },
      status as ResourceStatus,
      degraded,
    );
    forcedSeen.set(key, marker);
    outcome.phase = status.phase;
    outcome.reason = status.reason;
    // A lost admin is fixed by creating a Secret, which does not wake the server: keep looking; so is a Ready
    // held through an outage (reason not Ready) until Keycloak answers again.
    const settled =
      (status.phase === 'Ready' && status.reason === 'Ready') ||
      (status.phase === 'Failed' && status.reason !== 'AdminCredentialsLost');
    const requeue = settled ? undefined : notReadyPollMs;
    return { requeueAfterMs: requeue, outcome };
  };
}
