// The realms and scale benches' sizes and goals, from the command line (apart from the environment code, so the
// flags are unit-tested without it).
import { parseArgs } from 'node:util';

export type Workload = {
  name: 'realms' | 'scale';
  realms: number;
  clientsPerRealm: number;
  namespaces: number;
  /** Every realm first, then every client (scale), or each realm with its clients (realms). */
  phased: boolean;
  driftS: number;
  /** The memory limit of both Keycloaks (the process kubelet gives the JVM 70% of it, as the image does). */
  keycloakMemory: string;
  intervals: number;
  production: boolean;
  rssGoalMb: number;
  convergenceGoal: number;
  /** Restart the operator under each memory setting at the end (memory-variants.ts). */
  variants: boolean;
};

/** The workload of `realms` or `scale` from the command line's flags. */
export function workloadFrom(name: 'realms' | 'scale', args: string[]): Workload {
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
  const count = (flag: keyof typeof values, fallback: number) => {
    const raw = values[flag];
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 1) throw new Error(`--${flag}=${raw}: give a whole number of at least 1`);
    return n;
  };
  return {
    name,
    realms: count('realms', scale ? 1000 : 50),
    clientsPerRealm: count('clients-per-realm', scale ? 10 : 4),
    namespaces: count('namespaces', scale ? 50 : 10),
    phased: scale,
    // At 11,000 resources a 60 s interval would need 183 reads/s, above the 100 TPS global limit: 180 s is 61/s.
    driftS: count('drift', scale ? 180 : 20),
    // 1,000 realms and 10,000 clients need more heap than the default 2Gi limit's 1.4 GB.
    keycloakMemory: scale ? '4Gi' : '2Gi',
    intervals: count('intervals', scale ? 3 : 1),
    production: values.production === true,
    rssGoalMb: scale ? 250 : 110,
    convergenceGoal: scale ? 1.3 : 1.5,
    variants: values['memory-variants'] === true,
  };
}
