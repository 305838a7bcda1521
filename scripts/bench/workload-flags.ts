// The realms, scale and tenants benches' sizes and goals, from the command line (apart from the environment code,
// so the flags are unit-tested without it).
import { parseArgs } from 'node:util';

export type CaseName = 'realms' | 'scale' | 'tenants';

export type Workload = {
  name: CaseName;
  realms: number;
  clientsPerRealm: number;
  namespaces: number;
  /** Every realm first, then every client (scale), or each realm with its clients (realms, tenants). */
  phased: boolean;
  /** The direct script imports each realm with its clients in one POST (tenants), or posts the clients apart. */
  importClients: boolean;
  /** Realm counts at which creation pauses for a measured steady-state pass on both sides (read-passes.ts); the
   * last is the full size, measured once everything is Ready. Empty: no passes measured. */
  cpuAt: number[];
  driftS: number;
  /** The memory limit of both Keycloaks (the process kubelet gives the JVM 70% of it, as the image does). */
  keycloakMemory: string;
  intervals: number;
  production: boolean;
  rssGoalMb: number;
  /** Per-realm goals (tenants): admin calls of a realm's reconciles at creation, steady reads per interval. */
  realmGoals?: { callsAtCreation: number; readsPerInterval: number };
  convergenceGoal: number;
  /** Restart the operator under each memory setting at the end (memory-variants.ts). */
  variants: boolean;
};

/** The tenants case's default size: what fits 60 minutes on this 2-core machine (docs/benchmarks.md). */
export const tenantsDefault = 200;

/** The workload of `realms`, `scale` or `tenants` from the command line's flags. */
export function workloadFrom(name: CaseName, args: string[]): Workload {
  const { values } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      realms: { type: 'string' },
      'clients-per-realm': { type: 'string' },
      namespaces: { type: 'string' },
      drift: { type: 'string' },
      intervals: { type: 'string' },
      production: { type: 'boolean' },
      'memory-variants': { type: 'boolean' },
    },
  });
  const scale = name === 'scale';
  const tenants = name === 'tenants';
  const count = (flag: keyof typeof values, fallback: number) => {
    const raw = values[flag];
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 1) throw new Error(`--${flag}=${raw}: give a whole number of at least 1`);
    return n;
  };
  const realms = count('realms', scale ? 1000 : tenants ? tenantsDefault : 50);
  // Keycloak's cost per call grows with the realm count: passes at 10, 100 and 1,000 realms (scale) or at 10
  // (tenants), each below the full size, and at the full size.
  const sizes = scale ? [10, 100, 1000] : tenants ? [10] : [];
  return {
    name,
    realms,
    clientsPerRealm: count('clients-per-realm', scale ? 10 : tenants ? 1 : 4),
    namespaces: count('namespaces', scale ? 50 : 10),
    phased: scale,
    importClients: tenants,
    cpuAt: name === 'realms' ? [] : [...sizes.filter((n) => n < realms), realms],
    // At 11,000 resources a 60 s interval would need 183 reads/s, above the 100 TPS global limit: 180 s is 61/s.
    driftS: count('drift', scale ? 180 : tenants ? 60 : 20),
    // 1,000 realms and 10,000 clients need more heap than the default 2Gi limit's 1.4 GB.
    keycloakMemory: scale ? '4Gi' : '2Gi',
    intervals: count('intervals', scale ? 3 : tenants ? 2 : 1),
    production: tenants || values.production === true,
    rssGoalMb: scale ? 250 : tenants ? 150 : 110,
    ...(tenants ? { realmGoals: { callsAtCreation: 3, readsPerInterval: 1.5 } } : {}),
    convergenceGoal: scale ? 1.3 : tenants ? 1.2 : 1.5,
    variants: values['memory-variants'] === true,
  };
}
