// A token bucket on the Clock: `burst` tokens, refilled continuously at `tps` per second, callers served first in,
// first out. On the Clock (not on its own timers, as bottleneck was) so that tests and the benchmark drive it with
// the manual clock and assert exact waits.
import type { Clock, Timer } from '../../core/clock.ts';
import type { RateLimit } from '../runtime/operator-settings.ts';

export type TokenBucket = {
  /** Resolves when a token was taken for this caller. */
  take(): Promise<void>;
  /** Callers waiting for a token. */
  waiting(): number;
  /** Releases every waiting caller (shutdown). */
  stop(): void;
};

export function tokenBucket(limit: RateLimit, clock: Clock): TokenBucket {
  let tokens = limit.burst;
  let at = clock.monotonic();
  const queue: (() => void)[] = [];
  let timer: Timer | undefined;
  const refill = () => {
    const now = clock.monotonic();
    tokens = Math.min(limit.burst, tokens + ((now - at) * limit.tps) / 1000);
    at = now;
  };
  const serve = () => {
    timer = undefined;
    refill();
    while (queue.length && tokens >= 1) {
      tokens -= 1;
      queue.shift()?.();
    }
    // A token is due in (1 - tokens) / tps seconds; rounding up never lets a call through early.
    if (queue.length) {
      timer = clock.setTimer(Math.ceil(((1 - tokens) * 1000) / limit.tps), serve, { keepAlive: true });
    }
  };
  return {
    take() {
      return new Promise<void>((resolve) => {
        queue.push(resolve);
        if (!timer) serve();
      });
    },
    waiting: () => queue.length,
    stop() {
      timer?.cancel();
      timer = undefined;
      for (const resolve of queue.splice(0)) resolve();
    },
  };
}
