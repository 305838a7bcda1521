// Kubernetes-style conditions that keep their lastTransitionTime while their status stays the same, so that
// recomputing status in steady state yields an identical object and therefore no write; and the Ready and Synced
// pair every kind reports (docs/operator.md, "Conditions"): Synced says whether the last reconcile reached the
// desired state, Ready whether the object was last verified equal to its spec. A reconcile that could not look
// (Keycloak or the server it runs on does not answer) leaves Ready as last verified for a grace period, so a
// Keycloak restart changes Synced, not every tenant's Ready.
import type { Condition } from '../../../../generated/types/crds/identityserver.ts';

/** A condition without its bookkeeping fields, as a status computation produces it. */
export type ConditionInput = { type: string; status: Condition['status']; reason: string; message: string };

/** The phases every kind reports. */
export type Phase = 'Pending' | 'Provisioning' | 'Ready' | 'Failed';

/** What one reconcile found: the phase, reason and message it would report with nothing remembered. */
export type Verdict = { phase: Phase; reason: string; message: string };

/** How long Ready stays as last verified while the operator cannot verify it (--ready-grace). */
export const defaultReadyGraceMs = 10 * 60_000;

/**
 * Reasons that say the operator could not look (Keycloak, or the server or realm it goes through, does not answer
 * or is not Ready), as opposed to having found the object wrong. Only these hold a verified Ready.
 */
export const unverifiedReasons: ReadonlySet<string> = new Set([
  'KeycloakUnavailable',
  'ServerNotReady',
  'RealmNotReady',
  'HealthNotReady',
  'DeploymentNotAvailable',
  'ProbesFailing',
]);

/** Merges `next` into `previous`: a condition keeps its lastTransitionTime unless its status changed. Sorted by type. */
export function mergeConditions(
  previous: readonly Condition[] | undefined,
  next: readonly ConditionInput[],
  generation: number | undefined,
  now: string,
): Condition[] {
  return next
    .map((c) => {
      const old = previous?.find((p) => p.type === c.type);
      const lastTransitionTime =
        old && old.status === c.status && old.lastTransitionTime ? old.lastTransitionTime : now;
      const merged: Condition = {
        type: c.type,
        status: c.status,
        reason: c.reason,
        message: c.message,
        lastTransitionTime,
      };
      if (generation !== undefined) merged.observedGeneration = generation;
      return merged;
    })
    .sort((a, b) => a.type.localeCompare(b.type));
}

/**
 * When a verified Ready is held through `verdict`, the time it stops being held (ms since the epoch): Ready was
 * True for this generation, the verdict says the operator could not look, and Synced turned False (the outage
 * began) less than `graceMs` ago.
 */
export function readyHeldUntil(
  previous: readonly Condition[] | undefined,
  generation: number | undefined,
  verdict: Verdict,
  now: number,
  graceMs: number,
): number | undefined {
  if (verdict.phase === 'Ready' || !unverifiedReasons.has(verdict.reason)) return undefined;
  const ready = previous?.find((c) => c.type === 'Ready');
  if (ready?.status !== 'True' || ready.observedGeneration !== generation) return undefined;
  const synced = previous?.find((c) => c.type === 'Synced');
  const since = synced?.status === 'False' ? Date.parse(synced.lastTransitionTime ?? '') : now;
  const until = (Number.isNaN(since) ? now : since) + graceMs;
  return now < until ? until : undefined;
}

/**
 * The phase, reason, message and the Ready and Synced conditions to report for `verdict`. While Ready is held the
 * phase stays Ready (phase and the Ready condition never disagree) and the reason and message are the failure's.
 */
export function readiness(
  previous: readonly Condition[] | undefined,
  generation: number | undefined,
  verdict: Verdict,
  now: number,
  graceMs: number,
): Verdict & { conditions: ConditionInput[] } {
  const ok = verdict.phase === 'Ready';
  const synced: ConditionInput = ok
    ? { type: 'Synced', status: 'True', reason: 'ReconcileSuccess', message: verdict.message }
    : { type: 'Synced', status: 'False', reason: verdict.reason, message: verdict.message };
  const until = readyHeldUntil(previous, generation, verdict, now, graceMs);
  const kept = previous?.find((c) => c.type === 'Ready');
  if (until !== undefined && kept) {
    const ready: ConditionInput = {
      type: 'Ready',
      status: 'True',
      reason: kept.reason ?? 'Ready',
      message: kept.message ?? '',
    };
    const message = `${verdict.message}; Ready as last verified until ${new Date(until).toISOString()} unless verified again`;
    return { phase: 'Ready', reason: verdict.reason, message, conditions: [ready, synced] };
  }
  const ready: ConditionInput = {
    type: 'Ready',
    status: ok ? 'True' : 'False',
    reason: verdict.reason,
    message: verdict.message,
  };
  return { ...verdict, conditions: [ready, synced] };
}
