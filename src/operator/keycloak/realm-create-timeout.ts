// How long a realm create may take. Keycloak creates a realm with its default clients, roles, flows and keys in one
// transaction, and it gets slower as realms accumulate (every realm adds its admin roles to master's realm-management
// and its caches), while every other admin call stays fast. A fixed 30 s timeout turns a slow create into a lost
// answer, and a second create into a 409. So a realm create gets its own timeout per Keycloak: at least
// `floorMs` (2 minutes), and `factor` (4) times the slowest realm create measured on that Keycloak so far, at most
// `ceilingMs` (10 minutes). Measured figures and the rule: docs/operator.md, "Realm creation at scale".
import type { Clock } from '../../core/clock.ts';
import type { AdminClient } from './admin-client.ts';

export type RealmCreateRule = { floorMs: number; factor: number; ceilingMs: number };
export const realmCreateRule: RealmCreateRule = { floorMs: 120_000, factor: 4, ceilingMs: 600_000 };

/** The timeout for the next realm create, given the slowest one seen (ms; 0: none yet). */
export const realmCreateTimeoutMs = (slowestMs: number, rule: RealmCreateRule = realmCreateRule) =>
  Math.min(rule.ceilingMs, Math.max(rule.floorMs, Math.ceil(slowestMs * rule.factor)));

const slowest = new WeakMap<AdminClient, number>();

/** Sends a realm create through `send` with the timeout its Keycloak needs, and records how long it took. */
export async function timedRealmCreate<T>(
  admin: AdminClient,
  clock: Clock,
  send: (timeoutMs: number) => Promise<T>,
): Promise<T> {
  const started = clock.now();
  try {
    return await send(realmCreateTimeoutMs(slowest.get(admin) ?? 0));
  } finally {
    // A create that timed out still says Keycloak needed at least that long.
    const took = clock.now() - started;
    if (took > (slowest.get(admin) ?? 0)) slowest.set(admin, took);
  }
}
