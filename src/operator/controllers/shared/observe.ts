// Observe-only (spec.managementPolicy: Observe): the kind's own sync runs against an observing admin client
// (keycloak/observing-admin.ts), so what status reports is exactly what Manage would send. Nothing is written to
// Keycloak. A change that only adds the operator's marks (adoption) is not a difference of the spec.
import { RealmforgeError } from '../../../core/errors.ts';
import type { AdminClient } from '../../keycloak/admin-client.ts';
import { ItemConflictError } from '../../keycloak/collections/collection.ts';
import { observingAdmin, onlyBookkeeping, planLine } from '../../keycloak/observing-admin.ts';

/** Most lines kept on status (the schema's maxItems). */
export const maxDifferenceLines = 50;

/** What an observe found: status.differences and whether the object equals its resource. */
export type Observation = {
  /** Every change, one line each. */
  lines: string[];
  differences: { total: number; changes: string[]; partial?: boolean };
  equal: boolean;
};

/** Whether a resource only observes. */
export const observeOnly = (resource: { spec: { managementPolicy?: string } }) =>
  resource.spec.managementPolicy === 'Observe';

/**
 * Runs `sync` with writes recorded instead of sent. A conflict becomes a line; a failure after planned writes
 * means later steps needed them (partial); a failure before any (Keycloak down) is thrown as in Manage.
 */
export async function observeSync(
  admin: AdminClient,
  sync: (admin: AdminClient) => Promise<unknown>,
): Promise<Observation> {
  const observing = observingAdmin(admin);
  const lines: string[] = [];
  let partial = false;
  try {
    await sync(observing);
  } catch (error) {
    if (error instanceof ItemConflictError) lines.push(`conflict: ${error.message}`);
    else if (error instanceof RealmforgeError && observing.planned().length && error.kind !== 'transient')
      partial = true;
    else throw error;
  }
  lines.unshift(
    ...observing
      .planned()
      .filter((w) => !onlyBookkeeping(w))
      .map(planLine),
  );
  return {
    lines,
    differences: {
      total: lines.length,
      changes: lines.slice(0, maxDifferenceLines),
      ...(partial ? { partial } : {}),
    },
    equal: lines.length === 0 && !partial,
  };
}

/** The phase, reason and message an observe of `what` ("realm apps") reports. */
export function observedVerdict(what: string, o: Observation) {
  if (o.equal)
    return {
      phase: 'Ready' as const,
      reason: 'Observed',
      message: `${what} matches the resource (managementPolicy Observe: nothing is written)`,
    };
  const first = o.differences.changes[0] ?? '';
  const more = o.differences.partial ? ', and more once these are made' : '';
  return {
    phase: 'Pending' as const,
    reason: 'ObservedDifferences',
    message: `${what} differs from the resource in ${o.differences.total} change(s)${more} (first: ${first}); nothing is written while spec.managementPolicy is Observe: see status.differences, and set it to Manage to apply them`,
  };
}
