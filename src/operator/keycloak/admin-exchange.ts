// One HTTP exchange with Keycloak and its retries, the rules every admin call and token request follow:
// - fenced: a write checks leadership before every attempt, after waiting for a rate-limit slot and as it is
//   written to its connection, and the fence's signal aborts it in flight, so a deposed leader sends nothing more;
// - idempotent or not: a POST whose answer was lost (a timeout, a reset after sending, 500/502/504) is never
//   sent again; it throws OutcomeUnknownError and the caller reads back by natural key. Refused connections,
//   429 and 503 (nothing was applied) are retried like any other call;
// - bounded: waits follow the shared retry policy (src/core/retry.ts, Retry-After capped), and the server's
//   circuit breaker stops calls to a Keycloak that keeps failing;
// - worded as it was: every failure message carries the status and Keycloak's error text, and a 500 repeated for
//   the same request body while Keycloak answers other calls is the content's refusal (repeated-refusal.ts).

import type { Clock } from '../../core/clock.ts';
import { RealmforgeError } from '../../core/errors.ts';
import { parseRetryAfter, type RetryPolicy, retryDelay } from '../../core/retry.ts';
import type { HttpClient } from '../runtime/deps.ts';
import { notLeader } from '../runtime/fence.ts';
import type { CircuitBreaker } from './circuit-breaker.ts';
import { OutcomeUnknownError } from './outcome-unknown.ts';
import type { RateLimiter } from './rate-limits.ts';
import { contentRefused, type RefusalMemory, refusalKey } from './repeated-refusal.ts';

/** Four attempts, waits of 0.5, 1, 2 s (or the server's Retry-After, never more than 10 s). */
export const keycloakRetry: RetryPolicy = { retries: 3, backoffMs: 500, maxDelayMs: 10_000 };

const transientStatus = (s: number) => s === 429 || s === 502 || s === 503 || s === 504 || s === 500;
/** Statuses that say the request was not applied: a non-idempotent call may be sent again after them. */
const notApplied = (s: number) => s === 429 || s === 503;
/** Connection errors that happen before a request is sent. */
const notSentCodes = [
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
];

export type ExchangeDeps = {
  readonly http: HttpClient;
  readonly limiter: RateLimiter;
  readonly clock: Clock;
  /** Counts each attempt: `path` as the caller gave it (relative to /admin/realms, or the token path). */
  readonly count: (namespace: string, method: string, status: string, path: string) => void;
  /** False once this replica lost the leader lease: checked before every attempt of a write. */
  readonly canWrite: () => boolean;
  /** Aborted when the lease is lost: writes in flight and waits between attempts end at once. */
  readonly signal?: AbortSignal;
  readonly breaker: CircuitBreaker;
  /** The 500s to requests with a body, to tell a refused content from an unavailable Keycloak. */
  readonly refusals?: RefusalMemory;
  readonly timeoutMs: number;
  readonly retry: RetryPolicy;
  readonly sleep?: (ms: number) => Promise<void>;
};

export type Exchange = {
  namespace: string;
  method: string;
  url: string;
  /** The path for messages (without the base URL). */
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** A write is fenced; a non-idempotent one is never re-sent after an unknown outcome. */
  write: boolean;
  idempotent: boolean;
  /** This exchange's timeout per attempt, instead of deps.timeoutMs. */
  timeoutMs?: number;
  /** The rate-limit bucket, when not the namespace's own (a token shared by every namespace). */
  limitAs?: string;
};

export type Answer = { status: number; body: unknown; location?: string };

export function parseBody(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export function errorMessage(body: unknown): string {
  if (body && typeof body === 'object') {
    const b = body as { errorMessage?: string; error_description?: string; error?: string };
    return b.errorMessage ?? b.error_description ?? b.error ?? JSON.stringify(body).slice(0, 200);
  }
  return String(body ?? '').slice(0, 200);
}

/** The error a fenced write to Keycloak throws. */
export const notLeaderInKeycloak = () => notLeader('to Keycloak');

/** Sends `x` with retries for transient failures; returns the final status and body. */
export async function exchange(deps: ExchangeDeps, x: Exchange): Promise<Answer> {
  const fence = () => {
    if (x.write && (!deps.canWrite() || deps.signal?.aborted)) throw notLeaderInKeycloak();
  };
  const sleep =
    deps.sleep ??
    ((ms: number) =>
      new Promise<void>((resolve) => {
        const timer = deps.clock.setTimer(ms, resolve);
        const wake = () => {
          timer.cancel();
          resolve();
        };
        deps.signal?.addEventListener('abort', wake, { once: true });
      }));
  const what = `Keycloak ${x.method} ${x.url}`;
  const key = x.write && x.body !== undefined ? refusalKey(x.method, x.url, x.body) : undefined;
  let lastError = '';
  for (let attempt = 0; attempt <= deps.retry.retries; attempt++) {
    fence();
    await deps.limiter.acquire(x.limitAs ?? x.namespace);
    fence();
    deps.breaker.admit(what);
    let wait: number | undefined;
    let unknown: string | undefined;
    const signals = [AbortSignal.timeout(x.timeoutMs ?? deps.timeoutMs)];
    if (x.write && deps.signal) signals.push(deps.signal);
    try {
      const res = await deps.http(x.url, {
        method: x.method,
        headers: x.headers,
        body: x.body,
        signal: AbortSignal.any(signals),
        fence: x.write ? fence : undefined,
      });
      deps.count(x.namespace, x.method, String(res.status), x.path);
      const parsed = parseBody(await res.text());
      if (!transientStatus(res.status)) {
        deps.breaker.success();
        deps.refusals?.answered(key);
        return { status: res.status, body: parsed, location: res.headers?.get('location') ?? undefined };
      }
      lastError = `HTTP ${res.status} ${errorMessage(parsed)}`;
      if (res.status === 500 && key && deps.refusals?.refusedAgain(key)) {
        deps.breaker.success(); // Keycloak answers: it is the content it refuses
        throw contentRefused(x.method, x.path, lastError);
      }
      wait = parseRetryAfter(res.headers?.get('retry-after') ?? undefined, deps.clock.now());
      deps.breaker.failure(wait, lastError);
      if (!x.idempotent && !notApplied(res.status)) unknown = lastError;
    } catch (error) {
      if (error instanceof RealmforgeError) throw error; // the content refused, above
      const code = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
      lastError = `${code}: ${(error as Error).message}`;
      deps.breaker.failure(undefined, lastError);
      fence();
      deps.count(x.namespace, x.method, 'error', x.path);
      if (!x.idempotent && !notSentCodes.includes(code)) unknown = lastError;
    }
    if (unknown !== undefined) throw new OutcomeUnknownError(x.method, x.path, unknown);
    if (attempt < deps.retry.retries) await sleep(retryDelay(attempt, deps.retry, wait));
  }
  throw new RealmforgeError(
    'transient',
    `${what} failed after ${deps.retry.retries + 1} attempts: ${lastError}`,
  );
}
