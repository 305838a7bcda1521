// Kubernetes-style conditions that keep their lastTransitionTime while their status stays the same, so that
// recomputing status in steady state yields an identical object and therefore no write.
import type { Condition } from '../../../../generated/types/crds/identityserver.ts';

/** A condition without its bookkeeping fields, as a status computation produces it. */
export type ConditionInput = { type: string; status: Condition['status']; reason: string; message: string };

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
