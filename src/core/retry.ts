/**
 * How many times to retry and how long to wait: exponential from `backoffMs`, capped at `maxDelayMs`; with
 * `budgetMs`, no retry is made whose wait would take the total waiting for one request past it.
 */
export type RetryPolicy = { retries: number; backoffMs: number; maxDelayMs: number; budgetMs?: number };

/** How long a person at a terminal waits, in total, for the retries of one read before bbdc gives up. */
export const interactiveRetryBudgetMs = 1000;

/** Milliseconds a `Retry-After` header asks for (delta-seconds or an HTTP date), or undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

/** The wait before retry number `attempt` (0-based): the server's Retry-After when given, else exponential backoff. */
export function retryDelay(attempt: number, policy: RetryPolicy, retryAfterMs?: number): number {
  if (retryAfterMs !== undefined) return Math.min(retryAfterMs, policy.maxDelayMs);
  return Math.min(policy.backoffMs * 2 ** attempt, policy.maxDelayMs);
}
