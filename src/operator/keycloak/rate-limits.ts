// The Keycloak admin API rate limits: a token bucket per namespace and one global bucket (bottleneck reservoirs,
// refilled in small steps so the rate is smooth). A call takes its namespace slot first and only then queues for a
// global slot, so a busy namespace waits in its own queue and never holds global slots that others need. It also
// tells the work queues which namespaces wait for their limit (NamespaceThrottle), so that no worker is spent
// waiting for one namespace while others have work.
import Bottleneck from 'bottleneck';
import type { RateLimit } from '../runtime/operator-settings.ts';
import type { NamespaceThrottle } from '../runtime/work-queue.ts';

/** Where waits and queue lengths are reported (the realmforge_keycloak_api_rate_limit_* series). */
export type RateLimitObserver = {
  waited(scope: 'namespace' | 'global', seconds: number): void;
  queued(scope: 'namespace' | 'global', delta: number): void;
};

/** Takes one slot for a call from `namespace`; resolves when the call may go. */
export type RateLimiter = { acquire(namespace: string): Promise<void>; stop(): Promise<void> };

function bucketOptions(limit: RateLimit): Bottleneck.ConstructorOptions {
  // Refill every 100 ms (or every token when slower), so 50 TPS refills 5 slots per step.
  const intervalMs = Math.max(100, Math.ceil(1000 / limit.tps));
  return {
    reservoir: limit.burst,
    reservoirIncreaseInterval: intervalMs,
    reservoirIncreaseAmount: (limit.tps * intervalMs) / 1000,
    reservoirIncreaseMaximum: limit.burst,
    heartbeatInterval: intervalMs,
  };
}

/** The two-level limiter; `now` gives seconds for the wait histogram. */
export function createRateLimiter(
  limits: { global: RateLimit; namespace: RateLimit },
  observer: RateLimitObserver,
  now: () => number = () => performance.now() / 1000,
): RateLimiter & NamespaceThrottle {
  const global = new Bottleneck(bucketOptions(limits.global));
  const namespaces = new Bottleneck.Group(bucketOptions(limits.namespace));
  const waiting = new Map<string, number>();
  const listeners = new Set<() => void>();
  const wait = (namespace: string, delta: number) => {
    const n = (waiting.get(namespace) ?? 0) + delta;
    if (n > 0) waiting.set(namespace, n);
    else waiting.delete(namespace);
    for (const l of listeners) l();
  };
  const take = async (scope: 'namespace' | 'global', limiter: Bottleneck) => {
    const started = now();
    observer.queued(scope, 1);
    try {
      await limiter.schedule(() => Promise.resolve());
    } finally {
      observer.queued(scope, -1);
      observer.waited(scope, now() - started);
    }
  };
  return {
    async acquire(namespace) {
      wait(namespace, 1);
      try {
        await take('namespace', namespaces.key(namespace));
      } finally {
        wait(namespace, -1);
      }
      await take('global', global);
    },
    waiting: (namespace) => waiting.get(namespace) ?? 0,
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async stop() {
      await Promise.all([
        global.disconnect(false),
        ...namespaces.limiters().map((l) => l.limiter.disconnect(false)),
      ]);
    },
  };
}
