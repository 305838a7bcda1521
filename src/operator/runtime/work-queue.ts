// The per-key work queue every controller runs on: keys are deduplicated while they wait, a key is never
// handled by two workers at once (an add during handling re-runs it once afterwards), at most `concurrency`
// keys run together, failures retry with exponential backoff and jitter, and success may ask for a requeue.
// Fair across namespaces (keys are `namespace/name`): waiting keys are taken round-robin by namespace, a
// namespace whose calls wait for its rate limit (`throttle`) starts no new key while it waits, and a key that
// waits for its namespace's limit does not hold a worker: one busy namespace never holds up the others.

import type { Clock, Timer } from '../../core/clock.ts';
import { type BackoffOptions, backoffDelay } from './backoff.ts';

/** What a handler returns: nothing, or a delay after which the key should be looked at again. */
export type HandleResult = undefined | { requeueAfterMs?: number };

/** Handles one key; a thrown error schedules a retry with backoff. */
export type KeyHandler = (key: string) => Promise<HandleResult | undefined>;

/** How many calls of a namespace wait for its rate limit now, and a way to hear when that changes. */
export type NamespaceThrottle = {
  waiting(namespace: string): number;
  /** Calls `listener` whenever a namespace's waiting count changes; returns the unsubscribe. */
  onChange(listener: () => void): () => void;
};

/** Queue settings; `onError` sees each failure (for logs and metrics), `onSettled` each finished run. */
export type WorkQueueOptions = {
  readonly concurrency: number;
  readonly clock: Clock;
  readonly backoff: BackoffOptions;
  readonly onError?: (key: string, error: unknown, retryInMs: number) => void;
  /** The rate limiter's view of throttled namespaces (none: plain FIFO with `concurrency` workers). */
  readonly throttle?: NamespaceThrottle;
};

const namespaceOf = (key: string) => key.slice(0, Math.max(0, key.indexOf('/')));

/** A deduplicating, per-key serial, bounded-concurrency queue with delayed adds. */
export class WorkQueue {
  readonly #handler: KeyHandler;
  readonly #options: WorkQueueOptions;
  /** Waiting keys by namespace. */
  readonly #waiting = new Map<string, string[]>();
  #waitingCount = 0;
  /** When each namespace was last served (a counter): the one served longest ago goes next. */
  readonly #served = new Map<string, number>();
  #tick = 0;
  readonly #queued = new Set<string>();
  readonly #running = new Set<string>();
  readonly #dirty = new Set<string>();
  readonly #failures = new Map<string, number>();
  readonly #timers = new Map<string, { at: number; timer: Timer }>();
  readonly #idle: (() => void)[] = [];
  #stopped = false;
  #unsubscribe: (() => void) | undefined;

  constructor(handler: KeyHandler, options: WorkQueueOptions) {
    this.#handler = handler;
    this.#options = options;
    this.#unsubscribe = options.throttle?.onChange(() => this.#pump());
  }

  /** Queues `key` now unless it already waits; if it is running, it runs once more when it finishes. */
  add(key: string): void {
    if (this.#stopped) return;
    if (this.#running.has(key)) {
      this.#dirty.add(key);
      return;
    }
    if (this.#queued.has(key)) return;
    this.#queued.add(key);
    const ns = namespaceOf(key);
    const list = this.#waiting.get(ns);
    if (list) list.push(key);
    else this.#waiting.set(ns, [key]);
    this.#waitingCount++;
    this.#pump();
  }

  /** Queues `key` after `ms`; an earlier pending delayed add for the key wins over a later one. */
  addAfter(key: string, ms: number): void {
    if (this.#stopped) return;
    if (ms <= 0) {
      this.add(key);
      return;
    }
    const at = this.#options.clock.now() + ms;
    const existing = this.#timers.get(key);
    if (existing && existing.at <= at) return;
    existing?.timer.cancel();
    const timer = this.#options.clock.setTimer(ms, () => {
      this.#timers.delete(key);
      this.add(key);
    });
    this.#timers.set(key, { at, timer });
  }

  /** Forgets a key's failure count and pending retry (the object was deleted). */
  forget(key: string): void {
    this.#failures.delete(key);
    this.#timers.get(key)?.timer.cancel();
    this.#timers.delete(key);
  }

  /** Keys waiting to run now (the queue-depth metric). */
  depth(): number {
    return this.#waitingCount;
  }

  /** Consecutive failures of `key` so far. */
  failures(key: string): number {
    return this.#failures.get(key) ?? 0;
  }

  /** Resolves when nothing waits and nothing runs (delayed adds may still be pending). */
  idle(): Promise<void> {
    if (this.#waitingCount === 0 && this.#running.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  /** Stops taking keys, cancels delayed adds, drops waiting keys, and resolves when running handlers finish. */
  async shutdown(): Promise<void> {
    this.#stopped = true;
    for (const { timer } of this.#timers.values()) timer.cancel();
    this.#timers.clear();
    this.#unsubscribe?.();
    this.#waiting.clear();
    this.#waitingCount = 0;
    this.#queued.clear();
    this.#dirty.clear();
    await this.idle();
  }

  /** Running keys that do not wait for their namespace's rate limit (each waiting call frees one). */
  #busy(): number {
    const throttle = this.#options.throttle;
    if (!throttle) return this.#running.size;
    const perNamespace = new Map<string, number>();
    for (const key of this.#running) {
      const ns = namespaceOf(key);
      perNamespace.set(ns, (perNamespace.get(ns) ?? 0) + 1);
    }
    let busy = 0;
    for (const [ns, n] of perNamespace) busy += n - Math.min(n, throttle.waiting(ns));
    return busy;
  }

  /** The next key, round-robin by namespace (the one served longest ago), skipping throttled namespaces. */
  #next(): string | undefined {
    let best: string | undefined;
    for (const ns of this.#waiting.keys()) {
      if ((this.#options.throttle?.waiting(ns) ?? 0) > 0) continue;
      if (best === undefined || (this.#served.get(ns) ?? 0) < (this.#served.get(best) ?? 0)) best = ns;
    }
    if (best === undefined) return undefined;
    const list = this.#waiting.get(best) as string[];
    const key = list.shift() as string;
    if (list.length === 0) this.#waiting.delete(best);
    this.#served.set(best, ++this.#tick);
    this.#waitingCount--;
    return key;
  }

  #pump(): void {
    while (this.#waitingCount > 0 && this.#busy() < this.#options.concurrency) {
      const key = this.#next();
      if (key === undefined) break;
      this.#queued.delete(key);
      this.#running.add(key);
      void this.#run(key);
    }
    if (this.#waitingCount === 0 && this.#running.size === 0) {
      for (const resolve of this.#idle.splice(0)) resolve();
    }
  }

  async #run(key: string): Promise<void> {
    let retry: number | undefined;
    try {
      const result = await this.#handler(key);
      this.#failures.delete(key);
      retry = result?.requeueAfterMs;
    } catch (error) {
      const n = (this.#failures.get(key) ?? 0) + 1;
      this.#failures.set(key, n);
      retry = backoffDelay(n, this.#options.backoff);
      this.#options.onError?.(key, error, retry);
    }
    this.#running.delete(key);
    if (this.#dirty.delete(key)) this.add(key);
    else if (retry !== undefined) this.addAfter(key, retry);
    this.#pump();
  }
}
