// The status of an IdentityServer as a pure function of its spec, its previous status, what was observed and the
// time. Ready means: the Deployment is available, /health/ready answers UP and an admin token can be obtained.
import type {
  IdentityServer,
  IdentityServerStatus,
} from '../../../../generated/types/crds/identityserver.ts';
import { deployedSpec, resolveServer, serverEndpoints } from '../../compile/resolved-server.ts';
import {
  type ConditionInput,
  defaultReadyGraceMs,
  mergeConditions,
  readiness,
  type Verdict,
} from '../shared/conditions.ts';
import { type ServerObservation, type StuckReason, stuckReason } from './server-stuck.ts';

// Reasons that mean something is broken and needs a person, as opposed to still starting.
const degradedReasons = new Set([
  'ImagePullFailed',
  'CrashLoop',
  'Unschedulable',
  'VolumeClaimPending',
  'ProbesFailing',
  'DatabaseClusterMissing',
  'DatabaseCredentialsMissing',
  'AdminCredentialsRejected',
  'SecretAccessDenied',
]);

/**
 * A server's phase, reason, message and conditions for `verdict`: Ready and Synced as every kind has them (Ready
 * held through an outage, conditions.ts), and the server's own Progressing and Degraded.
 */
export function serverVerdictStatus(
  server: IdentityServer,
  verdict: Verdict,
  others: ConditionInput[],
  now: Date,
  graceMs = defaultReadyGraceMs,
) {
  const generation = server.metadata.generation;
  const previous = server.status?.conditions;
  const found = readiness(previous, generation, verdict, now.getTime(), graceMs);
  return {
    phase: found.phase,
    reason: found.reason,
    message: found.message,
    observedGeneration: generation,
    conditions: mergeConditions(previous, [...found.conditions, ...others], generation, now.toISOString()),
  };
}

/** Status for a server that cannot be compiled or applied until a person acts (phase Failed unless given). */
export function failedServerStatus(
  server: IdentityServer,
  reason: string,
  message: string,
  now: Date,
  phase: IdentityServerStatus['phase'] = 'Failed',
  graceMs = defaultReadyGraceMs,
): IdentityServerStatus {
  const conditions: ConditionInput[] = [
    { type: 'Progressing', status: 'False', reason, message },
    { type: 'Degraded', status: 'True', reason, message },
  ];
  return {
    ...server.status,
    ...serverVerdictStatus(server, { phase, reason, message }, conditions, now, graceMs),
  };
}

/** Progressing and Degraded for what was found. */
function conditionsFor(stuck: StuckReason | undefined): ConditionInput[] {
  if (!stuck) {
    const ok = 'Keycloak is available, healthy and accepts the admin credentials';
    return [
      { type: 'Progressing', status: 'False', reason: 'Ready', message: ok },
      { type: 'Degraded', status: 'False', reason: 'Ready', message: ok },
    ];
  }
  const degraded = degradedReasons.has(stuck.reason);
  return [
    {
      type: 'Progressing',
      status: degraded ? 'False' : 'True',
      reason: stuck.reason,
      message: stuck.message,
    },
    {
      type: 'Degraded',
      status: degraded ? 'True' : 'False',
      reason: degraded ? stuck.reason : 'NotDegraded',
      message: degraded ? stuck.message : 'no failure detected',
    },
  ];
}

/** The status to write after a reconcile that applied the desired objects and observed `obs`. */
export function computeServerStatus(
  server: IdentityServer,
  obs: ServerObservation,
  now: Date,
  graceMs = defaultReadyGraceMs,
): IdentityServerStatus {
  const resolved = resolveServer(server);
  const stuck = stuckReason(resolved, obs);
  const phase: IdentityServerStatus['phase'] = !stuck
    ? 'Ready'
    : stuck.blocksStart
      ? 'Pending'
      : 'Provisioning';
  const endpoints = serverEndpoints(resolved);
  const verdict = { phase, reason: stuck?.reason ?? 'Ready', message: stuck?.message ?? 'Keycloak is ready' };
  const status: IdentityServerStatus = {
    ...serverVerdictStatus(server, verdict, conditionsFor(stuck), now, graceMs),
    endpoints: Object.fromEntries(Object.entries(endpoints).filter(([, v]) => v !== undefined)),
    adminSecret: resolved.adminSecretName,
    readyReplicas: obs.deployment?.status?.readyReplicas ?? 0,
  };
  // version reports what runs: the spec's tag once Ready, otherwise what ran before (if anything).
  const version = stuck ? server.status?.version : deployedSpec(server).image.tag;
  if (version) status.version = version;
  return status;
}
