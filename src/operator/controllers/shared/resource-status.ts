// Status for the three kinds: a phase with its reason and message, the Ready condition that `kubectl wait
// --for=condition=Ready` reads and the Synced condition (conditions.ts), written by writeStatus (the one status writer) only when it differs from what is
// stored, with an Event on every change of phase or reason (Warning when the new phase is Failed or the reason
// says something is wrong; repetitions are aggregated by the event recorder).
import { apiVersion, type KubeObject } from '../../compile/kube-object.ts';
import type { Deps } from '../../runtime/deps.ts';
import { isSubset } from '../../runtime/desired-state.ts';
import { defaultReadyGraceMs, mergeConditions, type Phase, readiness } from './conditions.ts';

export type { Phase };

/** A realm's or client's status: the shared fields plus the kind's own. */
export type ResourceStatus = {
  phase: Phase;
  reason: string;
  message: string;
  observedGeneration?: number;
  conditions?: unknown[];
  [field: string]: unknown;
};

type WithStatus = KubeObject & { status?: Record<string, unknown> };

// A Ready held through an outage has the failure's reason: a Warning too.
const defaultWarning = (status: ResourceStatus) =>
  status.phase === 'Failed' || (status.reason !== 'Ready' && status.reason !== 'Provisioning');

/**
 * The status for what a reconcile found (`phase`, `reason`, `message`) with its Ready and Synced conditions,
 * Ready held for `graceMs` when the reconcile could not look; `extra` carries the kind's own fields.
 */
export function phaseStatus(
  object: WithStatus,
  phase: Phase,
  reason: string,
  message: string,
  extra: Record<string, unknown>,
  now: Date,
  graceMs = defaultReadyGraceMs,
): ResourceStatus {
  const generation = object.metadata.generation;
  const previous = (object.status?.conditions ?? []) as Parameters<typeof mergeConditions>[0];
  const found = readiness(previous, generation, { phase, reason, message }, now.getTime(), graceMs);
  return {
    ...extra,
    phase: found.phase,
    reason: found.reason,
    message: found.message,
    observedGeneration: generation,
    conditions: mergeConditions(previous, found.conditions, generation, now.toISOString()),
  };
}

/**
 * Writes `status` when it differs from the stored one; returns whether it wrote. `warning` overrides which new
 * statuses are Warning events (a server is also Warning while Degraded).
 */
export async function writeStatus(
  deps: Deps,
  object: WithStatus,
  status: ResourceStatus,
  warning: (status: ResourceStatus) => boolean = defaultWarning,
): Promise<boolean> {
  const prev = object.status ?? {};
  const clean = Object.fromEntries(Object.entries(status).filter(([, v]) => v !== undefined));
  if (isSubset(clean, prev) && isSubset(prev, clean)) return false;
  const { name, namespace } = object.metadata;
  await deps.kube.applyStatus({ apiVersion, kind: object.kind, namespace, name }, clean);
  if (prev.phase !== status.phase || prev.reason !== status.reason) {
    await deps.kube.event(object, {
      type: warning(status) ? 'Warning' : 'Normal',
      reason: status.reason,
      message: `phase ${String(prev.phase ?? 'none')} -> ${status.phase}: ${status.message}`,
    });
  }
  return true;
}
