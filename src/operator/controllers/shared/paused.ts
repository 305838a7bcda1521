// The pause switch every kind honours (crossplane's `crossplane.io/paused`): while a resource carries
// `realmforge.dev/paused: "true"` its reconcile does not run at all, deletion included, so nothing is written to
// Keycloak or to its Kubernetes children until the annotation goes. Status says so: Synced turns False with reason
// ReconcilePaused, while phase and Ready stay as last verified.
import type { Condition } from '../../../../generated/types/crds/identityserver.ts';
import type { KubeObject } from '../../compile/kube-object.ts';
import type { Reconciler } from '../../runtime/controller-loop.ts';
import type { Deps } from '../../runtime/deps.ts';
import { mergeConditions } from './conditions.ts';
import { getResource } from './owner-server.ts';
import { type ResourceStatus, writeStatus } from './resource-status.ts';

export const pausedAnnotation = 'realmforge.dev/paused';

type WithStatus = KubeObject & { status?: Partial<ResourceStatus> };

/** Whether `object` asks for its reconcile to stop. */
export const isPaused = (object: KubeObject) => object.metadata.annotations?.[pausedAnnotation] === 'true';

/** The status of a paused object: what it last reported, with Synced False / ReconcilePaused. */
export function pausedStatus(object: WithStatus, now: Date): ResourceStatus {
  const previous = (object.status?.conditions ?? []) as Condition[];
  const message = `annotation ${pausedAnnotation} is "true": nothing is written (deletion included) until it is removed`;
  const ready = previous.find((c) => c.type === 'Ready') ?? {
    type: 'Ready',
    status: 'Unknown' as const,
    reason: 'ReconcilePaused',
    message,
  };
  const synced = { type: 'Synced', status: 'False' as const, reason: 'ReconcilePaused', message };
  const generation = object.metadata.generation;
  return {
    ...object.status,
    phase: object.status?.phase ?? 'Pending',
    reason: 'ReconcilePaused',
    message,
    observedGeneration: generation,
    conditions: mergeConditions(
      previous,
      [
        { type: 'Ready', status: ready.status, reason: ready.reason ?? '', message: ready.message ?? '' },
        synced,
      ],
      generation,
      now.toISOString(),
    ),
  };
}

/** `reconcile` for `kind`, skipped (status only) while the resource is paused; a paused resource is still looked
 * at every `requeueAfterMs` (its drift interval), so its status stays current. */
export function pausable(
  deps: Deps,
  kind: string,
  reconcile: Reconciler,
  requeueAfterMs?: number,
): Reconciler {
  return async (key) => {
    const object = await getResource<WithStatus>(deps, kind, key);
    if (!object || !isPaused(object)) return reconcile(key);
    await writeStatus(deps, object, pausedStatus(object, new Date(deps.clock.now())));
    return {
      requeueAfterMs,
      outcome: { phase: object.status?.phase, reason: 'ReconcilePaused', writes: [] },
    };
  };
}
