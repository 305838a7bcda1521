// HTTP to the API server over undici: one keep-alive dispatcher with the access's TLS material (through its
// proxy when it has one), its Authorization and Impersonate-* headers, JSON in and out, and watch streams read as
// newline-delimited JSON events. 429 and 503 (the API server's priority and fairness, a restarting server) are
// retried after their Retry-After, capped; a request's `fence` is checked before every attempt and again as it is
// written to its connection, so a replica that lost its lease never sends a write it was retrying or waiting to
// send. Network failures become transient errors; other statuses are returned to the caller, which turns the ones
// it does not expect into typed errors with kubeError().
import { Agent, type Dispatcher, ProxyAgent, request, Socks5ProxyAgent } from 'undici';
import { type Clock, systemClock } from '../../core/clock.ts';
import { RealmforgeError } from '../../core/errors.ts';
import { parseRetryAfter, type RetryPolicy, retryDelay } from '../../core/retry.ts';
import { checkedAtWrite } from './fence.ts';
import type { KubeAccess } from './kube-config.ts';

/** A query string's parameters; undefined values are left out. */
export type Query = Record<string, string | number | boolean | undefined>;

/**
 * One answer: the HTTP status and the JSON body (undefined when there is none or it is not JSON); `text` is the raw
 * body, for the few non-JSON answers read through the API server (a pod's /metrics through its proxy).
 */
export type KubeResponse = { status: number; body: unknown; text?: string };

/** A watch that answered: its status, and when 200 the stream of decoded events (else the error body). */
export type WatchResponse = { status: number; body?: unknown; events?: AsyncIterable<unknown> };

/** Requests to one API server. */
export type KubeTransport = {
  request(
    method: string,
    path: string,
    options?: {
      query?: Query;
      body?: unknown;
      contentType?: string;
      /** Checked before every attempt and as it is written; throws to stop (a write after the lease was lost). */
      fence?: () => void;
      /** Aborts the request in flight (the lease was lost). */
      signal?: AbortSignal;
    },
  ): Promise<KubeResponse>;
  /** Opens a watch; `idleMs` bounds the silence between two chunks before the stream is treated as dead. */
  watch(path: string, query: Query, signal: AbortSignal, idleMs: number): Promise<WatchResponse>;
  close(): Promise<void>;
};

/** A Kubernetes Status body's message, or undefined. */
function statusMessage(body: unknown): string | undefined {
  const message = (body as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' ? message : undefined;
}

/** The typed error for an unexpected HTTP status: 401/403 auth, 404 not_found, 409 conflict, 400/422 validation. */
export function kubeError(what: string, status: number, body: unknown): RealmforgeError {
  const message = `${what}: ${statusMessage(body) ?? `HTTP ${status}`}`;
  const cause = { status, body };
  if (status === 401 || status === 403) return new RealmforgeError('auth', message, { cause });
  if (status === 404) return new RealmforgeError('not_found', message, { cause });
  if (status === 409) return new RealmforgeError('conflict', message, { cause });
  if (status === 400 || status === 422) return new RealmforgeError('validation', message, { cause });
  return new RealmforgeError('transient', message, { cause });
}

/** `path?query`, with the query's defined values URL-encoded. */
export function withQuery(path: string, query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) params.set(k, String(v));
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

async function* events(body: AsyncIterable<Buffer>): AsyncIterable<unknown> {
  const decoder = new TextDecoder();
  let partial = '';
  for await (const chunk of body) {
    const lines = (partial + decoder.decode(chunk, { stream: true })).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) if (line.trim()) yield JSON.parse(line);
  }
  if (partial.trim()) yield JSON.parse(partial);
}

/** 429 and 503 are retried 3 times, after Retry-After or 1, 2, 4 s, never waiting more than 10 s. */
export const apiServerRetry: RetryPolicy = { retries: 3, backoffMs: 1000, maxDelayMs: 10_000 };

const retriedStatus = (status: number) => status === 429 || status === 503;

/** The undici dispatcher for `access`: direct, or through its HTTP(S) or SOCKS5 proxy, with its TLS material. */
function dispatcherFor(access: KubeAccess, timeoutMs: number): Dispatcher {
  const tls = {
    ca: access.ca,
    cert: access.cert,
    key: access.key,
    rejectUnauthorized: !access.insecureSkipTlsVerify,
    servername: access.tlsServerName,
  };
  const timeouts = { headersTimeout: timeoutMs, bodyTimeout: timeoutMs };
  if (!access.proxy) return new Agent({ connect: { ...tls, timeout: 10_000 }, ...timeouts });
  if (access.proxy.startsWith('socks5:'))
    return new Socks5ProxyAgent(access.proxy, { requestTls: tls, ...timeouts });
  return new ProxyAgent({ uri: access.proxy, requestTls: tls, ...timeouts });
}

export type TransportOptions = { timeoutMs?: number; clock?: Clock; retry?: RetryPolicy };

/** A transport to the API server `access` names; requests time out after `timeoutMs` without an answer. */
export function kubeTransport(access: KubeAccess, options: TransportOptions = {}): KubeTransport {
  const { timeoutMs = 30_000, clock = systemClock, retry = apiServerRetry } = options;
  const agent = dispatcherFor(access, timeoutMs);
  const headers = async (contentType?: string) => {
    const h: Record<string, string | string[]> = {
      accept: 'application/json',
      'user-agent': 'realmforge',
      ...access.impersonation,
    };
    const authorization = await access.authorization();
    if (authorization) h.authorization = authorization;
    if (contentType) h['content-type'] = contentType;
    return h;
  };
  const unreachable = (method: string, path: string, error: unknown) =>
    new RealmforgeError(
      'transient',
      `${method} ${path}: cannot reach the API server ${access.server} (${access.source}): ${(error as Error).message}`,
      { cause: error },
    );
  const sleep = (ms: number, signal?: AbortSignal) =>
    new Promise<void>((resolve) => {
      const timer = clock.setTimer(ms, resolve);
      signal?.addEventListener('abort', () => {
        timer.cancel();
        resolve();
      });
    });
  return {
    async request(method, path, options = {}) {
      const contentType =
        options.body === undefined ? undefined : (options.contentType ?? 'application/json');
      for (let attempt = 0; ; attempt++) {
        options.fence?.();
        options.signal?.throwIfAborted();
        let res: Awaited<ReturnType<typeof request>>;
        try {
          res = await request(`${access.server}${withQuery(path, options.query)}`, {
            method: method as 'GET',
            headers: await headers(contentType),
            body: options.body === undefined ? undefined : JSON.stringify(options.body),
            dispatcher: checkedAtWrite(agent, options.fence),
            signal: options.signal,
          });
        } catch (error) {
          options.fence?.();
          throw unreachable(method, path, error);
        }
        const text = await res.body.text().catch((error: unknown) => {
          throw unreachable(method, path, error);
        });
        if (res.statusCode === 401) access.refresh();
        if (retriedStatus(res.statusCode) && attempt < retry.retries) {
          const header = res.headers['retry-after'];
          const after = parseRetryAfter(Array.isArray(header) ? header[0] : header, clock.now());
          await sleep(retryDelay(attempt, retry, after), options.signal);
          continue;
        }
        return { status: res.statusCode, body: parseJson(text), text };
      }
    },
    async watch(path, query, signal, idleMs) {
      let res: Awaited<ReturnType<typeof request>>;
      try {
        res = await request(`${access.server}${withQuery(path, query)}`, {
          method: 'GET',
          headers: await headers(),
          dispatcher: agent,
          signal,
          bodyTimeout: idleMs,
        });
      } catch (error) {
        throw unreachable('GET', path, error);
      }
      if (res.statusCode !== 200) {
        if (res.statusCode === 401) access.refresh();
        return { status: res.statusCode, body: parseJson(await res.body.text().catch(() => '')) };
      }
      return { status: 200, events: events(res.body) };
    },
    close: () => agent.close(),
  };
}
