// Leader election on a coordination.k8s.io/v1 Lease, the way Kubernetes controllers do it: the leader renews the
// lease every retry period; another replica takes it over only after it has seen the same lease record unchanged
// for a whole lease duration (15 s on its own monotonic clock, so neither clock skew between nodes nor a wall-clock
// step matters); updates carry the resourceVersion, so two replicas can never both win. The rule that fences
// writes: a leader whose last successful renewal *started* 10 s ago (the renew deadline) stops leading, whether
// its renewals fail or hang; a timer enforces it even while a renewal hangs. The other replica counts its 15 s
// from a moment after that renewal started, so the deposed leader has stopped at least 5 s before a takeover.

import type { Clock, Timer } from '../../core/clock.ts';
import { RealmforgeError } from '../../core/errors.ts';

/** The lease as stored; `version` is the resourceVersion that an update must match. */
export type LeaseRecord = {
  readonly holder: string;
  readonly durationSeconds: number;
  readonly acquireTime: number;
  readonly renewTime: number;
  readonly transitions: number;
  readonly version?: string;
};

/** Where the lease lives; update throws a RealmforgeError of kind conflict when the version is stale. */
export type LeaseStore = {
  read(): Promise<LeaseRecord | undefined>;
  create(record: LeaseRecord): Promise<LeaseRecord>;
  update(record: LeaseRecord): Promise<LeaseRecord>;
};

/** Timings, as in client-go: lease 15 s, renew deadline 10 s, retry every 2 s. */
export type ElectionTimings = { durationMs: number; renewDeadlineMs: number; retryMs: number };
export const defaultTimings: ElectionTimings = {
  durationMs: 15_000,
  renewDeadlineMs: 10_000,
  retryMs: 2_000,
};

/** What the elector tells its owner. */
export type ElectionCallbacks = {
  onStartedLeading(): void;
  onStoppedLeading(reason: string): void;
  onError?(error: unknown): void;
};

/** Competes for one lease as `identity`; call start() to run, stop() to release. */
export class LeaderElector {
  readonly #store: LeaseStore;
  readonly #identity: string;
  readonly #clock: Clock;
  readonly #timings: ElectionTimings;
  readonly #callbacks: ElectionCallbacks;
  #leading = false;
  #lastRenew = 0;
  #observed?: { version?: string; holder: string; at: number };
  #timer?: Timer;
  #stopped = false;

  constructor(
    store: LeaseStore,
    identity: string,
    clock: Clock,
    callbacks: ElectionCallbacks,
    timings: ElectionTimings = defaultTimings,
  ) {
    this.#store = store;
    this.#identity = identity;
    this.#clock = clock;
    this.#callbacks = callbacks;
    this.#timings = timings;
  }

  #deadline?: Timer;

  /** True while this replica holds a lease whose last successful renewal started less than the renew deadline ago. */
  isLeader(): boolean {
    return this.#leading && this.#clock.monotonic() - this.#lastRenew < this.#timings.renewDeadlineMs;
  }

  /** One attempt to acquire or renew; start() calls it every retry period. */
  async tick(): Promise<void> {
    const now = this.#clock.now();
    const started = this.#clock.monotonic();
    try {
      const current = await this.#store.read();
      if (current && (current.version !== this.#observed?.version || !this.#observed)) {
        this.#observed = { version: current.version, holder: current.holder, at: started };
      }
      const next = (holder: string, acquired: boolean, transitions: number): LeaseRecord => ({
        holder,
        durationSeconds: this.#timings.durationMs / 1000,
        acquireTime: acquired ? now : (current?.acquireTime ?? now),
        renewTime: now,
        transitions,
        version: current?.version,
      });
      let written: LeaseRecord | undefined;
      if (!current) {
        written = await this.#store.create(next(this.#identity, true, 0));
      } else if (current.holder === this.#identity) {
        written = await this.#store.update(next(this.#identity, false, current.transitions));
      } else if (
        !current.holder ||
        started - (this.#observed?.at ?? started) >= current.durationSeconds * 1000
      ) {
        written = await this.#store.update(next(this.#identity, true, current.transitions + 1));
      }
      if (written) {
        this.#observed = { version: written.version, holder: written.holder, at: started };
        if (this.#stopped) return;
        this.#lastRenew = started;
        this.#armDeadline();
        if (!this.#leading) {
          this.#leading = true;
          this.#callbacks.onStartedLeading();
        }
      } else if (this.#leading) {
        this.#lose(`the lease is held by ${current?.holder}`);
      }
    } catch (error) {
      this.#callbacks.onError?.(error);
      if (error instanceof RealmforgeError && error.kind === 'conflict' && this.#leading) {
        this.#lose('another replica updated the lease');
      } else if (this.#leading && !this.isLeader()) {
        this.#lose(`could not renew the lease for ${this.#timings.renewDeadlineMs / 1000} s`);
      }
    }
  }

  /** Steps down when no renewal succeeds within the deadline, even while a renewal request hangs. */
  #armDeadline(): void {
    this.#deadline?.cancel();
    const left = this.#lastRenew + this.#timings.renewDeadlineMs - this.#clock.monotonic();
    this.#deadline = this.#clock.setTimer(left, () => {
      if (this.#leading && !this.isLeader()) {
        this.#lose(`could not renew the lease for ${this.#timings.renewDeadlineMs / 1000} s`);
      }
    });
  }

  #lose(reason: string): void {
    if (!this.#leading) return;
    this.#leading = false;
    this.#deadline?.cancel();
    this.#callbacks.onStoppedLeading(reason);
  }

  /** Ticks now and then every retry period until stop(). */
  start(): void {
    const loop = async () => {
      await this.tick();
      if (!this.#stopped) this.#timer = this.#clock.setTimer(this.#timings.retryMs, loop);
    };
    void loop();
  }

  /** Stops competing; a leader releases the lease (empty holder) so another replica takes over at once. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#timer?.cancel();
    this.#deadline?.cancel();
    if (!this.#leading) return;
    this.#leading = false;
    try {
      const current = await this.#store.read();
      if (current?.holder === this.#identity) {
        await this.#store.update({ ...current, holder: '', renewTime: this.#clock.now() });
      }
    } catch (error) {
      this.#callbacks.onError?.(error);
    }
  }
}
