// A circuit breaker per Keycloak: after `threshold` failed calls in a row (5xx, 429, timeouts, refused
// connections) it opens and calls fail at once without being sent; after a cool-down one probe call is let
// through (half-open); its success closes the breaker, its failure opens it again for twice as long, up to
// `maxOpenMs`. A slow answer is a success: slow is not down. So a failing Keycloak gets a few calls a minute
// from the operator, not hundreds, and a recovered one is noticed within one cool-down. Its refusal names the last
// failure as it was (the status and Keycloak's words, or the connection error), so throttling (429) and a broken
// Keycloak (500) read differently.

import type { Clock } from '../../core/clock.ts';
import { RealmforgeError } from '../../core/errors.ts';

export type BreakerOptions = { threshold: number; openMs: number; maxOpenMs: number };

/** Five failures in a row open it for 5 s, doubling up to 30 s while probes keep failing. */
export const defaultBreaker: BreakerOptions = { threshold: 5, openMs: 5_000, maxOpenMs: 30_000 };

export type BreakerState = 'closed' | 'open' | 'half-open';

export type CircuitBreaker = {
  /** Throws a transient error when the call may not be sent now; else the call goes (and must report back). */
  admit(what: string): void;
  success(): void;
  /** A failed call (`detail`: its status and error); `retryAfterMs` (a 429's or 503's Retry-After) lengthens the cool-down. */
  failure(retryAfterMs?: number, detail?: string): void;
  state(): BreakerState;
  /** The time (clock.now()) of the last successful call, if any. */
  lastSuccess(): number | undefined;
};

/** A breaker for the Keycloak at `name`. */
export function circuitBreaker(
  name: string,
  clock: Clock,
  options: BreakerOptions = defaultBreaker,
): CircuitBreaker {
  let failures = 0;
  let openMs = options.openMs;
  let openUntil: number | undefined;
  let probing = false;
  let succeeded: number | undefined;
  let last = '';
  const state = (): BreakerState =>
    openUntil === undefined ? 'closed' : clock.monotonic() < openUntil || probing ? 'open' : 'half-open';
  return {
    admit(what) {
      const now = state();
      if (now === 'closed') return;
      if (now === 'half-open') {
        probing = true; // this call is the probe; the others wait for its outcome
        return;
      }
      const wait = Math.max(0, Math.ceil(((openUntil ?? 0) - clock.monotonic()) / 1000));
      throw new RealmforgeError(
        'transient',
        `${what}: not sent, Keycloak at ${name} failed ${failures} calls in a row${last ? `, the last with ${last}` : ''} (circuit open; ${probing ? 'a probe call is under way' : `the next call is tried in ${wait} s`})`,
      );
    },
    success() {
      failures = 0;
      openMs = options.openMs;
      openUntil = undefined;
      probing = false;
      succeeded = clock.now();
    },
    failure(retryAfterMs, detail) {
      failures++;
      last = detail ?? '';
      if (probing || (openUntil === undefined && failures >= options.threshold)) {
        if (probing) openMs = Math.min(openMs * 2, options.maxOpenMs);
        openUntil = clock.monotonic() + Math.max(openMs, Math.min(retryAfterMs ?? 0, options.maxOpenMs));
        probing = false;
      }
    },
    state,
    lastSuccess: () => succeeded,
  };
}
