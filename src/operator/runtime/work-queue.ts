// The per-key work queue every controller runs on: keys are deduplicated while they wait, a key is never
// handled by two workers at once (an add during handling re-runs it once afterwards), at most `concurrency`
// keys run together, failures retry with exponential backoff and jitter, and success may ask for a requeue.
import { type BackoffOptions, backoffDelay } from './backoff.ts';
import type { Clock, Timer } from './clock.ts';

/** What a handler returns: nothing, or a delay after which the key should be looked at again. */
export type HandleResult = undefined | { requeueAfterMs?: number };

/** Handles one key; a thrown error schedules a retry with backoff. */
export type KeyHandler = (key: string) => Promise<HandleResult | undefined>;

/** Queue settings; `onError` sees each failure (for logs and metrics), `onSettled` each finished run. */
export type WorkQueueOptions = {
  readonly concurrency: number;
  readonly clock: Clock;
  readonly backoff: BackoffOptions;
  readonly onError?: (key: string, error: unknown, retryInMs: number) => void;
};

/** A deduplicating, per-key serial, bounded-concurrency queue with delayed adds. */
export class WorkQueue {
  readonly #handler: KeyHandler;
  readonly #options: WorkQueueOptions;
  readonly #waiting: string[] = [];
  readonly #queued = new Set<string>();
  readonly #running = new Set<string>();
  readonly #dirty = new Set<string>();
  readonly #failures = new Map<string, number>();
  readonly #timers = new Map<string, { at: number; timer: Timer }>();
  readonly #idle: (() => void)[] = [];
  #stopped = false;

  constructor(handler: KeyHandler, options: WorkQueueOptions) {
    this.#handler = handler;
    this.#options = options;
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
    this.#waiting.push(key);
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
    return this.#waiting.length;
  }

  /** Consecutive failures of `key` so far. */
  failures(key: string): number {
    return this.#failures.get(key) ?? 0;
  }

  /** Resolves when nothing waits and nothing runs (delayed adds may still be pending). */
  idle(): Promise<void> {
    if (this.#waiting.length === 0 && this.#running.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  /** Stops taking keys, cancels delayed adds, drops waiting keys, and resolves when running handlers finish. */
  async shutdown(): Promise<void> {
    this.#stopped = true;
    for (const { timer } of this.#timers.values()) timer.cancel();
    this.#timers.clear();
    this.#waiting.length = 0;
    this.#queued.clear();
    this.#dirty.clear();
    await this.idle();
  }

  #pump(): void {
    while (this.#running.size < this.#options.concurrency && this.#waiting.length > 0) {
      const key = this.#waiting.shift() as string;
      this.#queued.delete(key);
      this.#running.add(key);
      void this.#run(key);
    }
    if (this.#waiting.length === 0 && this.#running.size === 0) {
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
