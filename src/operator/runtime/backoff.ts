// Retry delays for a failing key: exponential in the number of consecutive failures, capped, with "full
// jitter" (a random delay between half and all of the step) so that many keys failing together spread out.

/** How the delay grows: the first step, the cap, and the random source (injected so tests are exact). */
export type BackoffOptions = {
  readonly baseMs: number;
  readonly maxMs: number;
  /** Returns a number in [0, 1), like Math.random. */
  readonly random: () => number;
};

/** The defaults the operator runs with: 500 ms doubling up to five minutes. */
export const defaultBackoff = { baseMs: 500, maxMs: 300_000 } as const;

/** A reconcile's retries: the defaults, but never longer apart than the drift interval, so a resource that failed
 * while Keycloak was down is tried again as soon as a healthy one would be resynced, not minutes after it is back. */
export const reconcileBackoff = (driftIntervalMs: number, random: () => number): BackoffOptions => ({
  ...defaultBackoff,
  maxMs: Math.min(defaultBackoff.maxMs, driftIntervalMs),
  random,
});

/** The delay before retry number `failures` (1 for the first failure): in [step/2, step), step = min(max, base*2^(n-1)). */
export function backoffDelay(failures: number, options: BackoffOptions): number {
  const n = Math.max(1, Math.floor(failures));
  const step = Math.min(options.maxMs, options.baseMs * 2 ** Math.min(n - 1, 40));
  return Math.floor(step / 2 + (step / 2) * options.random());
}

/** A seeded random source (mulberry32): the same seed gives the same sequence, for tests and benchmarks. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
