// Why an IdentityServer is not Ready yet, read from what the cluster reports: the CNPG Cluster, the copied
// credentials, the Pods and their claims, Keycloak's health endpoint and the admin token. Pure: the controller
// gathers the observation, this file names the first problem a user should fix.
import type { V1Deployment, V1PersistentVolumeClaim, V1Pod } from '@kubernetes/client-node';
import type { ProbeOutcome } from '../../keycloak/server-probes.ts';

/** The CNPG Cluster as far as the operator cares: absent, or present and ready or not. */
export type DatabaseClusterObservation =
  | { readonly found: false }
  | { readonly found: true; readonly ready: boolean; readonly phase?: string };

/** Everything the status of one IdentityServer is computed from. */
export type ServerObservation = {
  readonly databaseCluster: DatabaseClusterObservation;
  readonly databaseSecretFound: boolean;
  /** Why the database credentials Secret could not be read (no Secret access there), if so. */
  readonly databaseDenied?: string;
  readonly deployment?: V1Deployment;
  readonly pods: readonly V1Pod[];
  readonly claims: readonly V1PersistentVolumeClaim[];
  readonly health: ProbeOutcome;
  readonly token: ProbeOutcome;
  /** Older Keycloak versions whose pods must stop before the spec's version starts (server-upgrade.ts). */
  readonly stopping?: readonly string[];
  /** The version the spec asks for. */
  readonly version?: string;
};

/** A stable machine reason (condition reason), a sentence for people, and whether nothing can start yet (Pending). */
export type StuckReason = {
  readonly reason: string;
  readonly message: string;
  readonly blocksStart: boolean;
};

const imagePullReasons = new Set([
  'ErrImagePull',
  'ImagePullBackOff',
  'InvalidImageName',
  'ErrImageNeverPull',
]);

/** Reads a CNPG Cluster object: ready when its Ready condition is True or its phase says healthy. */
export function observeDatabaseCluster(
  cluster: Record<string, unknown> | undefined,
): DatabaseClusterObservation {
  if (!cluster) return { found: false };
  const status = (cluster.status ?? {}) as {
    phase?: string;
    conditions?: { type: string; status: string }[];
  };
  const readyCondition = status.conditions?.find((c) => c.type === 'Ready');
  const ready = readyCondition
    ? readyCondition.status === 'True'
    : status.phase === 'Cluster in healthy state';
  return { found: true, ready, phase: status.phase };
}

function podProblem(pod: V1Pod): StuckReason | undefined {
  const name = pod.metadata?.name ?? 'pod';
  const scheduled = pod.status?.conditions?.find((c) => c.type === 'PodScheduled');
  if (scheduled?.status === 'False' && scheduled.reason === 'Unschedulable') {
    return {
      reason: 'Unschedulable',
      message: `pod ${name} cannot be scheduled: ${scheduled.message ?? 'no node fits'}`,
      blocksStart: false,
    };
  }
  for (const c of pod.status?.containerStatuses ?? []) {
    const waiting = c.state?.waiting;
    if (waiting?.reason && imagePullReasons.has(waiting.reason)) {
      return {
        reason: 'ImagePullFailed',
        message: `pod ${name} cannot pull image ${c.image}: ${waiting.reason}${waiting.message ? `: ${waiting.message}` : ''}`,
        blocksStart: false,
      };
    }
    if (waiting?.reason === 'CrashLoopBackOff') {
      const last = c.lastState?.terminated;
      const why = last
        ? `last exit ${last.reason ?? 'unknown'} (code ${last.exitCode})`
        : 'no termination recorded';
      return {
        reason: 'CrashLoop',
        message: `container ${c.name} in pod ${name} keeps crashing: ${why}; see kubectl logs ${name} --previous`,
        blocksStart: false,
      };
    }
    if (c.started === true && c.ready === false && c.state?.running) {
      return {
        reason: 'ProbesFailing',
        message: `container ${c.name} in pod ${name} started but its readiness probe on port 9000 fails`,
        blocksStart: false,
      };
    }
  }
  return undefined;
}

function deploymentAvailable(d: V1Deployment | undefined): boolean {
  return (
    d?.status?.conditions?.some((c) => c.type === 'Available' && c.status === 'True') === true &&
    (d.status?.readyReplicas ?? 0) > 0
  );
}

/** What a rollout still waits for, as `kubectl rollout status` judges it; undefined when it is complete. */
export function rolloutPending(d: V1Deployment | undefined): string | undefined {
  if (!d) return undefined; // the Deployment's absence is DeploymentNotAvailable
  const want = d.spec?.replicas ?? 1;
  const st = d.status ?? {};
  const updated = st.updatedReplicas ?? 0;
  if ((d.metadata?.generation ?? 0) > (st.observedGeneration ?? 0))
    return 'waiting for the Deployment controller to observe the latest spec';
  if (updated < want) return `${updated} of ${want} pods run the latest spec`;
  if ((st.replicas ?? 0) > updated) return `${(st.replicas ?? 0) - updated} old pods are still terminating`;
  if ((st.availableReplicas ?? 0) < updated)
    return `${st.availableReplicas ?? 0} of ${updated} updated pods are available`;
  return undefined;
}

/** The first reason the server is not Ready, in the order a user should fix them; undefined when Ready. */
export function stuckReason(
  server: {
    database: { cluster: string; namespace: string; credentialsSecret: string };
    adminSecretName?: string;
  },
  obs: ServerObservation,
): StuckReason | undefined {
  const db = server.database;
  if (!obs.databaseCluster.found) {
    return {
      reason: 'DatabaseClusterMissing',
      message: `CNPG Cluster ${db.namespace}/${db.cluster} does not exist; create it or fix spec.database`,
      blocksStart: true,
    };
  }
  if (obs.databaseDenied) {
    return { reason: 'SecretAccessDenied', message: obs.databaseDenied, blocksStart: true };
  }
  if (!obs.databaseSecretFound) {
    return {
      reason: 'DatabaseCredentialsMissing',
      message: `Secret ${db.namespace}/${db.credentialsSecret} (keys username, password) is missing or unreadable; check spec.database.credentialsSecret and the keycloak-operator-namespace-access RoleBinding in ${db.namespace}`,
      blocksStart: true,
    };
  }
  if (!obs.databaseCluster.ready) {
    return {
      reason: 'DatabaseNotReady',
      message: `CNPG Cluster ${db.namespace}/${db.cluster} is not ready (${obs.databaseCluster.phase ?? 'no phase yet'})`,
      blocksStart: true,
    };
  }
  if (obs.stopping?.length) {
    const pods = obs.pods.length;
    return {
      reason: 'UpgradeInProgress',
      message: `stopping Keycloak ${obs.stopping.join(', ')} before ${obs.version ?? 'the new version'} starts (two versions never run on one database): ${pods} pod${pods === 1 ? '' : 's'} left`,
      blocksStart: false,
    };
  }
  for (const claim of obs.claims) {
    if (claim.status?.phase === 'Pending') {
      return {
        reason: 'VolumeClaimPending',
        message: `PersistentVolumeClaim ${claim.metadata?.name} is not bound`,
        blocksStart: false,
      };
    }
  }
  for (const pod of obs.pods) {
    const problem = podProblem(pod);
    if (problem) return problem;
  }
  if (!deploymentAvailable(obs.deployment)) {
    return {
      reason: 'DeploymentNotAvailable',
      message: 'waiting for the Keycloak Deployment to become available',
      blocksStart: false,
    };
  }
  const rollout = rolloutPending(obs.deployment);
  if (rollout) {
    return { reason: 'RolloutInProgress', message: `Keycloak rollout: ${rollout}`, blocksStart: false };
  }
  if (obs.health.state === 'failed') {
    return {
      reason: 'HealthNotReady',
      message: `Keycloak /health/ready on port 9000: ${obs.health.message}`,
      blocksStart: false,
    };
  }
  if (obs.token.state === 'failed' && /\b401\b|invalid_grant/.test(obs.token.message)) {
    return {
      reason: 'AdminCredentialsRejected',
      message: `Keycloak rejects the admin account in Secret ${server.adminSecretName ?? '<server>-admin-credentials'} (${obs.token.message}): its database already has another admin (a server re-created on a retained database, or a replaced Secret), and Keycloak reads bootstrap credentials only on an empty database. Put that admin's username and password in the Secret; if nobody knows them, on Keycloak 26 or newer run kubectl exec -it deploy/<server> -- /opt/keycloak/bin/kc.sh bootstrap-admin user --username temp-admin and use those`,
      blocksStart: false,
    };
  }
  if (obs.token.state === 'failed' && obs.token.reason) {
    return { reason: obs.token.reason, message: obs.token.message, blocksStart: false };
  }
  if (obs.token.state === 'failed') {
    // The probe's message names the request that failed (the token request or the admin request) and its answer.
    return {
      reason: 'KeycloakUnavailable',
      message: `Keycloak's admin API on port 8080 fails: ${obs.token.message}`,
      blocksStart: false,
    };
  }
  if (obs.health.state === 'skipped' || obs.token.state === 'skipped') {
    return { reason: 'NotChecked', message: 'Keycloak has not been checked yet', blocksStart: false };
  }
  return undefined;
}
