// The Keycloak admin REST client: a token for its identity (the operator's own client by client_credentials, in
// master or in one realm, or the bootstrap admin by password grant with admin-cli; admin-identity.ts), cached until shortly before it expires; one retry after a 401 with a fresh token. Each HTTP exchange (admin-exchange.ts) is fenced
// per attempt, never re-sends a POST whose answer was lost, retries with the shared policy and passes the
// server's circuit breaker. Every request, token requests included, first takes a rate-limit slot for its
// namespace and is counted by namespace, method and status, and by path template and the reconciling kind.

import type { Clock } from '../../core/clock.ts';
import { RealmforgeError } from '../../core/errors.ts';
import type { HttpClient } from '../runtime/deps.ts';
import {
  type ExchangeDeps,
  errorMessage,
  exchange,
  keycloakRetry,
  notLeaderInKeycloak,
} from './admin-exchange.ts';
import {
  type AdminIdentity,
  identityName,
  isOperatorClient,
  TokenRealmAbsentError,
  TokenRealmClosedError,
  TokenRefusedError,
  tokenForm,
  tokenRealm,
} from './admin-identity.ts';
import { AdminTokenTooLargeError, headersTooLarge } from './admin-token-too-large.ts';
import { type CircuitBreaker, circuitBreaker } from './circuit-breaker.ts';
import type { RateLimiter } from './rate-limits.ts';
import { refusalMemory } from './repeated-refusal.ts';

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
    options?: CallOptions,
  ): Promise<AdminResponse<T>>;
};

/** Per call: how long to wait for the answer (default: the client's timeoutMs), e.g. longer for a realm create. */
export type CallOptions = { readonly timeoutMs?: number };

/** What an admin client needs: HTTP, the limiter, a clock, the request counter and whether it may write. */
export type AdminClientDeps = {
  readonly http: HttpClient;
  readonly limiter: RateLimiter;
  readonly clock: Clock;
  readonly random: () => number;
  readonly count: (namespace: string, method: string, status: string, path: string) => void;
  /** Learns the user id each of the operator client's tokens is for (its `sub`): change detection tells the
   * operator's own admin events by it. */
  readonly subject?: (userId: string) => void;
  /** Counts token requests (they are POSTs in `count` too, but not writes). */
  readonly countToken?: (namespace: string) => void;
  /** False once this replica lost the leader lease: writes are refused before they are sent. */
  readonly canWrite: () => boolean;
  /** Aborted when the lease is lost: writes in flight and waits between attempts end at once. */
  readonly signal?: AbortSignal;
  /** The server's circuit breaker (shared with its readiness); one per client when not given. */
  readonly breaker?: CircuitBreaker;
  readonly timeoutMs?: number;
  readonly attempts?: number;
  readonly sleep?: (ms: number) => Promise<void>;
};

type Token = { value: string; expiresAt: number };

/** The `sub` of a JWT access token Keycloak just issued (undefined: none, e.g. a lightweight token). */
export function subjectOf(token: string): string | undefined {
  try {
    const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as {
      sub?: unknown;
    };
    return typeof claims.sub === 'string' ? claims.sub : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The rate-limit bucket of token requests (not a namespace name: it has a colon). A token serves every namespace, so
 * its request must not wait in the queue of the namespace that happened to need it first: at its limit, that
 * namespace would hold up every other namespace's calls until the token comes.
 */
export const tokenBucketName = 'realmforge:token';

/** An admin client for the Keycloak at `baseUrl` (already resolved through the endpoint map). */
export function createAdminClient(baseUrl: string, admin: AdminIdentity, deps: AdminClientDeps): AdminClient {
  // A loaded Keycloak may take seconds per call; slow is not down (a lost answer is still detected).
  const timeoutMs = deps.timeoutMs ?? 30_000;
  const attempts = deps.attempts ?? 4;
  let token: Token | undefined;
  let pending: Promise<Token> | undefined;

  const breaker = deps.breaker ?? circuitBreaker(baseUrl, deps.clock);
  const exchangeDeps: ExchangeDeps = {
    ...deps,
    breaker,
    refusals: refusalMemory(),
    timeoutMs,
    retry: { ...keycloakRetry, retries: attempts - 1 },
  };

  async function fetchToken(namespace: string): Promise<Token> {
    const started = deps.clock.now();
    const form = tokenForm(admin);
    const tokenPath = `/realms/${encodeURIComponent(tokenRealm(admin))}/protocol/openid-connect/token`;
    // A token request creates nothing that a second one would duplicate: it is retried like a read. Each attempt
    // is counted as a token request too, so requests minus token requests counts admin calls exactly (counted
    // once per token while a retried attempt counted twice in the requests, a loaded Keycloak's retried token
    // showed as a steady-state write that no reconcile had made).
    const count: ExchangeDeps['count'] = (ns, method, status, path) => {
      deps.count(ns, method, status, path);
      deps.countToken?.(ns);
    };
    const res = await exchange(
      { ...exchangeDeps, count },
      {
        namespace,
        method: 'POST',
        url: `${baseUrl}${tokenPath}`,
        path: tokenPath,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: form.toString(),
        write: false,
        idempotent: true,
        limitAs: tokenBucketName,
      },
    );
    const body = res.body as { access_token?: string; expires_in?: number };
    if (res.status !== 200 || typeof body?.access_token !== 'string') {
      const message = `Keycloak at ${baseUrl} refused the admin credentials (HTTP ${res.status} ${errorMessage(res.body)}) of ${identityName(admin)}`;
      if (res.status === 401 || res.status === 400) throw new TokenRefusedError(admin, message);
      if (res.status === 404) throw new TokenRealmAbsentError(tokenRealm(admin));
      if (res.status === 403) throw new TokenRealmClosedError(tokenRealm(admin), errorMessage(res.body));
      throw new RealmforgeError('transient', message);
    }
    // Only a service account's: a person may use the bootstrap admin's account in the console.
    const sub = isOperatorClient(admin) ? subjectOf(body.access_token) : undefined;
    if (sub) deps.subject?.(sub);
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
      options?: CallOptions,
    ) {
      // A follower does not even fetch a token for a write.
      if (method !== 'GET' && !deps.canWrite()) throw notLeaderInKeycloak();
      // Paths are relative to /admin/realms; `../serverinfo` reaches the admin API's root (no realm is named `..`).
      const url = path.startsWith('../')
        ? `${baseUrl}/admin/${path.slice(3)}`
        : `${baseUrl}/admin/realms${path}`;
      const payload = body === undefined ? undefined : JSON.stringify(body);
      for (const fresh of [false, true]) {
        const value = await bearer(namespace, fresh);
        const headers: Record<string, string> = { authorization: `Bearer ${value}` };
        if (payload !== undefined) headers['content-type'] = 'application/json';
        const res = await exchange(exchangeDeps, {
          namespace,
          method,
          url,
          path,
          headers,
          body: payload,
          write: method !== 'GET',
          idempotent: method !== 'POST',
          timeoutMs: options?.timeoutMs,
        });
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
