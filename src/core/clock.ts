// Time as a dependency: both programs read the time, wait and set timers only through a Clock, so tests and
// benchmarks drive time by hand instead of sleeping.

/** A cancellable timer handle. */
export type Timer = { cancel(): void };

/** The current time, a monotonic reading for measuring ages, and one-shot timers. */
export type Clock = {
  now(): number;
  /** Milliseconds from an arbitrary origin that never jump (wall-clock steps do not move it): for ages and deadlines. */
  monotonic(): number;
  /** `keepAlive`: the timer keeps the process running (a caller waits on it), unlike a retry that may be dropped. */
  setTimer(ms: number, fn: () => void, options?: { keepAlive?: boolean }): Timer;
};

/** Waits `ms` on `clock`; the wait keeps the process running, as someone is waiting on it. */
export function sleep(clock: Clock, ms: number): Promise<void> {
  return new Promise((resolve) => clock.setTimer(ms, resolve, { keepAlive: true }));
}

/** The wall clock; timers are unref'd so a pending retry never keeps the process alive on its own. */
export const systemClock: Clock = {
  now: () => Date.now(),
  monotonic: () => performance.now(),
  setTimer(ms, fn, options) {
    const t = setTimeout(fn, Math.max(0, ms));
    if (!options?.keepAlive) t.unref?.();
    return { cancel: () => clearTimeout(t) };
  },
};

/** A clock that moves only when told: `advance(ms)` fires due timers in time order. */
export type ManualClock = Clock & { advance(ms: number): void; pending(): number };

/** A manual clock starting at `start` ms since the epoch. */
export function manualClock(start = Date.UTC(2026, 0, 1)): ManualClock {
  let now = start;
  let seq = 0;
  const timers = new Map<number, { at: number; fn: () => void }>();
  return {
    now: () => now,
    monotonic: () => now,
    setTimer(ms, fn) {
      const id = seq++;
      timers.set(id, { at: now + Math.max(0, ms), fn });
      return { cancel: () => timers.delete(id) };
    },
    advance(ms) {
      const end = now + ms;
      for (;;) {
        const due = [...timers.entries()]
          .filter(([, t]) => t.at <= end)
          .sort((a, b) => a[1].at - b[1].at || a[0] - b[0])[0];
        if (!due) break;
        timers.delete(due[0]);
        now = due[1].at;
        due[1].fn();
      }
      now = end;
    },
    pending: () => timers.size,
  };
}
