// The Keycloak admin REST client: a token for its identity (the operator's own client by client_credentials, or
// the bootstrap admin by password grant with admin-cli; admin-identity.ts), cached until shortly before it expires; one retry after a 401 with a fresh token; a timeout on every call; connection failures, 5xx
// and 429 (honouring Retry-After) retried with backoff. Every request, token requests included, first takes a
// rate-limit slot for its namespace and is counted by namespace, method and status.
import { RealmforgeError } from '../../core/errors.ts';
import { backoffDelay } from '../runtime/backoff.ts';
import type { Clock } from '../runtime/clock.ts';
import type { HttpClient } from '../runtime/deps.ts';
import { type AdminIdentity, identityName, tokenForm } from './admin-identity.ts';
import { AdminTokenTooLargeError, headersTooLarge } from './admin-token-too-large.ts';
import type { RateLimiter } from './rate-limits.ts';

/** One admin API answer: status, parsed JSON body (if any) and the Location header of a create. */
export type AdminResponse<T> = { status: number; body: T; location?: string };

/** Admin API calls relative to `/admin/realms`, made on behalf of `namespace` (for its rate limit). */
export type AdminClient = {
  readonly baseUrl: string;
  call<T = unknown>(
    namespace: string,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    body?: unknown,
  ): Promise<AdminResponse<T>>;
};

/** What an admin client needs: HTTP, the limiter, a clock, the request counter and whether it may write. */
export type AdminClientDeps = {
  readonly http: HttpClient;
  readonly limiter: RateLimiter;
  readonly clock: Clock;
  readonly random: () => number;
  readonly count: (namespace: string, method: string, status: string) => void;
  /** Counts token requests (they are POSTs in `count` too, but not writes). */
  readonly countToken?: (namespace: string) => void;
  /** False once this replica lost the leader lease: writes are refused before they are sent. */
  readonly canWrite: () => boolean;
  readonly timeoutMs?: number;
  readonly attempts?: number;
  readonly sleep?: (ms: number) => Promise<void>;
};

type Token = { value: string; expiresAt: number };

const transientStatus = (s: number) => s === 429 || s === 502 || s === 503 || s === 504 || s === 500;

function retryAfterMs(value: string | null | undefined, now: number): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

function parse(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function errorMessage(body: unknown): string {
  if (body && typeof body === 'object') {
    const b = body as { errorMessage?: string; error_description?: string; error?: string };
    return b.errorMessage ?? b.error_description ?? b.error ?? JSON.stringify(body).slice(0, 200);
  }
  return String(body ?? '').slice(0, 200);
}

/** An admin client for the Keycloak at `baseUrl` (already resolved through the endpoint map). */
export function createAdminClient(baseUrl: string, admin: AdminIdentity, deps: AdminClientDeps): AdminClient {
  const timeoutMs = deps.timeoutMs ?? 10_000;
  const attempts = deps.attempts ?? 4;
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((r) => deps.clock.setTimer(ms, r)));
  let token: Token | undefined;
  let pending: Promise<Token> | undefined;

  /** One HTTP exchange with retries for transient failures; returns the final status and body. */
  async function exchange(
    namespace: string,
    method: string,
    url: string,
    headers: Record<string, string>,
    body: string | undefined,
  ): Promise<{ status: number; body: unknown; location?: string }> {
    let lastError = '';
    for (let attempt = 1; attempt <= attempts; attempt++) {
      await deps.limiter.acquire(namespace);
      let wait: number | undefined;
      try {
        const res = await deps.http(url, { method, headers, body, signal: AbortSignal.timeout(timeoutMs) });
        deps.count(namespace, method, String(res.status));
        const parsed = parse(await res.text());
        if (!transientStatus(res.status)) {
          return { status: res.status, body: parsed, location: res.headers?.get('location') ?? undefined };
        }
        lastError = `HTTP ${res.status} ${errorMessage(parsed)}`;
        wait = retryAfterMs(res.headers?.get('retry-after'), deps.clock.now());
      } catch (error) {
        deps.count(namespace, method, 'error');
        const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
        lastError = `${cause}: ${(error as Error).message}`;
      }
      if (attempt < attempts)
        await sleep(wait ?? backoffDelay(attempt, { baseMs: 500, maxMs: 10_000, random: deps.random }));
    }
    throw new RealmforgeError(
      'transient',
      `${method} ${url} failed after ${attempts} attempts: ${lastError}`,
    );
  }

  async function fetchToken(namespace: string): Promise<Token> {
    const started = deps.clock.now();
    deps.countToken?.(namespace);
    const form = tokenForm(admin);
    const res = await exchange(
      namespace,
      'POST',
      `${baseUrl}/realms/master/protocol/openid-connect/token`,
      { 'content-type': 'application/x-www-form-urlencoded' },
      form.toString(),
    );
    const body = res.body as { access_token?: string; expires_in?: number };
    if (res.status !== 200 || typeof body?.access_token !== 'string') {
      throw new RealmforgeError(
        res.status === 401 || res.status === 400 ? 'auth' : 'transient',
        `Keycloak at ${baseUrl} refused the admin credentials (HTTP ${res.status} ${errorMessage(res.body)}) of ${identityName(admin)}`,
      );
    }
    // Renew when 80% of the lifetime has passed (at least 5 s early).
    const lifetime = (body.expires_in ?? 60) * 1000;
    return { value: body.access_token, expiresAt: started + Math.min(lifetime * 0.8, lifetime - 5000) };
  }

  async function bearer(namespace: string, fresh: boolean): Promise<string> {
    if (!fresh && token && deps.clock.now() < token.expiresAt) return token.value;
    pending ??= fetchToken(namespace).finally(() => {
      pending = undefined;
    });
    token = await pending;
    return token.value;
  }

  return {
    baseUrl,
    async call<T>(
      namespace: string,
      method: 'GET' | 'POST' | 'PUT' | 'DELETE',
      path: string,
      body?: unknown,
    ) {
      if (method !== 'GET' && !deps.canWrite()) {
        throw new RealmforgeError(
          'conflict',
          'not the leader any more: this replica does not write to Keycloak',
        );
      }
      const url = `${baseUrl}/admin/realms${path}`;
      const payload = body === undefined ? undefined : JSON.stringify(body);
      for (const fresh of [false, true]) {
        const value = await bearer(namespace, fresh);
        const headers: Record<string, string> = { authorization: `Bearer ${value}` };
        if (payload !== undefined) headers['content-type'] = 'application/json';
        const res = await exchange(namespace, method, url, headers, payload);
        if (res.status === 401 && !fresh) continue;
        if (headersTooLarge(res.status, res.body)) {
          throw new AdminTokenTooLargeError(baseUrl, method, path, res.status, Buffer.byteLength(value));
        }
        if (res.status < 400 || res.status === 404 || res.status === 409) return res as AdminResponse<T>;
        const kind =
          res.status === 401 || res.status === 403 ? 'auth' : res.status === 400 ? 'validation' : 'internal';
        throw new RealmforgeError(
          kind,
          `Keycloak ${method} ${path}: HTTP ${res.status} ${errorMessage(res.body)}`,
        );
      }
      throw new RealmforgeError('auth', `Keycloak ${method} ${path}: HTTP 401 even with a fresh token`);
    },
  };
}
