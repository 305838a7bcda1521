// HTTP to the API server over undici: one keep-alive Agent with the access's TLS material, JSON in and out, and
// watch streams read as newline-delimited JSON events. Network failures become transient errors; HTTP statuses
// are returned to the caller, which turns the ones it does not expect into typed errors with kubeError().
import { Agent, request } from 'undici';
import { RealmforgeError } from '../../core/errors.ts';
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
    options?: { query?: Query; body?: unknown; contentType?: string },
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

/** A transport to the API server `access` names; requests time out after `timeoutMs` without an answer. */
export function kubeTransport(access: KubeAccess, timeoutMs = 30_000): KubeTransport {
  const agent = new Agent({
    connect: {
      ca: access.ca,
      cert: access.cert,
      key: access.key,
      rejectUnauthorized: !access.insecureSkipTlsVerify,
      servername: access.tlsServerName,
      timeout: 10_000,
    },
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
  const headers = (contentType?: string) => {
    const h: Record<string, string> = { accept: 'application/json', 'user-agent': 'realmforge' };
    const authorization = access.authorization();
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
  return {
    async request(method, path, options = {}) {
      let res: Awaited<ReturnType<typeof request>>;
      try {
        res = await request(`${access.server}${withQuery(path, options.query)}`, {
          method: method as 'GET',
          headers: headers(
            options.body === undefined ? undefined : (options.contentType ?? 'application/json'),
          ),
          body: options.body === undefined ? undefined : JSON.stringify(options.body),
          dispatcher: agent,
        });
      } catch (error) {
        throw unreachable(method, path, error);
      }
      const text = await res.body.text().catch((error: unknown) => {
        throw unreachable(method, path, error);
      });
      if (res.statusCode === 401) access.refresh();
      return { status: res.statusCode, body: parseJson(text), text };
    },
    async watch(path, query, signal, idleMs) {
      let res: Awaited<ReturnType<typeof request>>;
      try {
        res = await request(`${access.server}${withQuery(path, query)}`, {
          method: 'GET',
          headers: headers(),
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
