// Leader election on a coordination.k8s.io/v1 Lease, the way Kubernetes controllers do it: the leader renews the
// lease every retry period; another replica takes it over only after it has seen the same lease record unchanged
// for a whole lease duration (its own clock, so clock skew between nodes does not matter); updates carry the
// resourceVersion, so two replicas can never both win. A leader that cannot renew within the renew deadline, or
// whose last renewal is older than the lease duration, stops being leader at once: isLeader() guards every write.
import { RealmforgeError } from '../../core/errors.ts';
import type { Clock, Timer } from './clock.ts';

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

  /** True while this replica holds a lease it renewed less than a lease duration ago. */
  isLeader(): boolean {
    return this.#leading && this.#clock.now() - this.#lastRenew < this.#timings.durationMs;
  }

  /** One attempt to acquire or renew; start() calls it every retry period. */
  async tick(): Promise<void> {
    const now = this.#clock.now();
    try {
      const current = await this.#store.read();
      if (current && (current.version !== this.#observed?.version || !this.#observed)) {
        this.#observed = { version: current.version, holder: current.holder, at: now };
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
      } else if (!current.holder || now - (this.#observed?.at ?? now) >= current.durationSeconds * 1000) {
        written = await this.#store.update(next(this.#identity, true, current.transitions + 1));
      }
      if (written) {
        this.#observed = { version: written.version, holder: written.holder, at: now };
        this.#lastRenew = now;
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
      } else if (this.#leading && now - this.#lastRenew >= this.#timings.renewDeadlineMs) {
        this.#lose(`could not renew the lease for ${this.#timings.renewDeadlineMs / 1000} s`);
      }
    }
  }

  #lose(reason: string): void {
    this.#leading = false;
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
