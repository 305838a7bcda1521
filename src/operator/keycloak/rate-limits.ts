// The Keycloak admin API rate limits: a token bucket per namespace and one global bucket (token-bucket.ts, on the
// Clock, refilled continuously so the rate is smooth). A call takes its namespace slot first and only then queues for a
// global slot, so a busy namespace waits in its own queue and never holds global slots that others need. It also
// tells the work queues which namespaces wait for their limit (NamespaceThrottle), so that no worker is spent
// waiting for one namespace while others have work.
import { type Clock, systemClock } from '../../core/clock.ts';
import type { RateLimit } from '../runtime/operator-settings.ts';
import type { NamespaceThrottle } from '../runtime/work-queue.ts';
import { type TokenBucket, tokenBucket } from './token-bucket.ts';

/** Where waits and queue lengths are reported (the realmforge_keycloak_api_rate_limit_* series). */
export type RateLimitObserver = {
  waited(scope: 'namespace' | 'global', seconds: number): void;
  queued(scope: 'namespace' | 'global', delta: number): void;
};

/** Takes one slot for a call from `namespace`; resolves when the call may go. */
export type RateLimiter = { acquire(namespace: string): Promise<void>; stop(): Promise<void> };

/** The two-level limiter on `clock` (its monotonic reading gives the seconds of the wait histogram). */
export function createRateLimiter(
  limits: { global: RateLimit; namespace: RateLimit },
  observer: RateLimitObserver,
  clock: Clock = systemClock,
): RateLimiter & NamespaceThrottle {
  const now = () => clock.monotonic() / 1000;
  const global = tokenBucket(limits.global, clock);
  const namespaces = new Map<string, TokenBucket>();
  const bucketOf = (namespace: string) => {
    let bucket = namespaces.get(namespace);
    if (!bucket) {
      bucket = tokenBucket(limits.namespace, clock);
      namespaces.set(namespace, bucket);
    }
    return bucket;
  };
  const waiting = new Map<string, number>();
  const listeners = new Set<() => void>();
  const wait = (namespace: string, delta: number) => {
    const n = (waiting.get(namespace) ?? 0) + delta;
    if (n > 0) waiting.set(namespace, n);
    else waiting.delete(namespace);
    for (const l of listeners) l();
  };
  const take = async (scope: 'namespace' | 'global', bucket: TokenBucket) => {
    const started = now();
    observer.queued(scope, 1);
    try {
      await bucket.take();
    } finally {
      observer.queued(scope, -1);
      observer.waited(scope, now() - started);
    }
  };
  return {
    async acquire(namespace) {
      const bucket = bucketOf(namespace);
      const taken = take('namespace', bucket);
      // Only a call its bucket queues waits: one served at once keeps its worker busy, and telling the work
      // queues otherwise would let them start a key beyond --concurrency on every call.
      const queued = bucket.waiting() > 0;
      if (queued) wait(namespace, 1);
      try {
        await taken;
      } finally {
        if (queued) wait(namespace, -1);
      }
      await take('global', global);
    },
    waiting: (namespace) => waiting.get(namespace) ?? 0,
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async stop() {
      global.stop();
      for (const bucket of namespaces.values()) bucket.stop();
    },
  };
}
