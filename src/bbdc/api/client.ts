import { type Clock, sleep } from '../../core/clock.ts';
import { RealmforgeError, sentences, UsageError } from '../../core/errors.ts';
import { parseJson, stringifyJson } from '../../core/exact-json.ts';
import { parseRetryAfter, type RetryPolicy, retryDelay } from '../../core/retry.ts';
import type { Logger } from '../output/logger.ts';
import { errorFromResponse } from './errors.ts';
import {
  type HttpRequest,
  type HttpResponse,
  type OpenResponse,
  type Transport,
  TransportError,
} from './transport-types.ts';

/** What bbdc sends to prove who it is: a token (optionally with a username) or a username and password. */
export type Credentials = { token?: string; username?: string; password?: string };

/** A request's query: undefined values are left out. */
export type Query = Record<string, string | number | boolean | undefined>;

/** A parsed answer: status, headers and JSON body (undefined when empty). */
export type ApiResponse<T> = { status: number; headers: Record<string, string | undefined>; data: T };

const idempotent = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);
const readOnly = new Set(['GET', 'HEAD', 'OPTIONS']);

/** A change the server accepted: a write that answered 2xx. */
export type AcceptedWrite = { method: string; path: string; status: number };

/** The Bitbucket REST client every command uses; create it with createClient. */
export interface BitbucketClient {
  readonly baseUrl: string;
  /** The username from the last X-AUSERNAME header, if any answer carried one. */
  readonly username: string | undefined;
  request<T>(
    method: string,
    path: string,
    options?: { query?: Query; body?: unknown; contentType?: string },
  ): Promise<ApiResponse<T>>;
  get<T>(path: string, query?: Query): Promise<T>;
  /** GETs a file's exact bytes (e.g. .../raw/{path}); errors are mapped as for every other call. */
  bytes(path: string, query?: Query): Promise<Buffer>;
  /**
   * GETs a JSON answer whose body is read as it arrives (a list's page, api/page-scanner.ts), with the retries and
   * error mapping of `get`. Optional: a client without it is read whole with `get`.
   */
  stream?(path: string, query?: Query): Promise<AsyncIterable<Buffer>>;
  /** How many times a failed request is sent again (a list cut mid-page is asked for again as often). */
  readonly retries?: number;
}

/**
 * Refuses a value that cannot go into an HTTP header (a control character, e.g. the newline a pasted token often
 * ends with) as a usage error naming `setting`; sent anyway it fails as a "network" error after every retry.
 */
export function checkHeaderValue(setting: string, value: string | undefined): void {
  if (value === undefined) return;
  const at = [...value].findIndex((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f);
  if (at < 0) return;
  const code = value.charCodeAt(at);
  const name =
    code === 10
      ? 'a line feed'
      : code === 13
        ? 'a carriage return'
        : code === 9
          ? 'a tab'
          : `control character 0x${code.toString(16).padStart(2, '0')}`;
  throw new UsageError(
    `${setting} contains ${name} at position ${at + 1}, which cannot be sent in an HTTP header; set it again without it (a copied token often ends with a line break)`,
  );
}

/** The Authorization header value for credentials: Bearer for a token, Basic for a username and password. */
export function authorization(credentials: Credentials | undefined): string | undefined {
  if (credentials?.token) return `Bearer ${credentials.token}`;
  if (credentials?.username && credentials.password !== undefined) {
    return `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}`;
  }
  return undefined;
}

/** Builds a client: auth header, XSRF header on mutating calls, retries with backoff and Bitbucket error mapping. */
export function createClient(options: {
  baseUrl: string;
  credentials?: Credentials;
  transport: Transport;
  retry: RetryPolicy;
  clock: Clock;
  logger: Logger;
  /** Told before each wait for a retry: how long, and why (what the server or the network answered). */
  onRetry?: (waitMs: number, reason: string) => void;
  /** Told of every write the server accepted, so a failure after it can still report the change as made. */
  onAccepted?: (write: AcceptedWrite) => void;
}): BitbucketClient {
  const { transport, retry, clock, logger } = options;
  checkHeaderValue('the token', options.credentials?.token);
  const auth = authorization(options.credentials);
  logger.redact(options.credentials?.token);
  logger.redact(options.credentials?.password);
  let username: string | undefined;

  function url(path: string, query: Query = {}): string {
    const search = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (v !== undefined) search.set(k, String(v));
    const qs = search.toString();
    return `${options.baseUrl}${path}${qs ? `?${qs}` : ''}`;
  }

  function send(
    method: string,
    target: string,
    body: string | undefined,
    accept = 'application/json',
    contentType = 'application/json',
  ): Promise<HttpResponse & { attempts: number }> {
    return exchange(method, target, body, accept, contentType, (req) => transport.send(req));
  }

  /** Sends with the retries; `open` makes one attempt, `discard` drops the body of an answer that is retried. */
  async function exchange<R extends Pick<HttpResponse, 'status' | 'headers'>>(
    method: string,
    target: string,
    body: string | undefined,
    accept: string,
    contentType: string,
    open: (req: HttpRequest) => Promise<R>,
    discard: (res: R) => void = () => {},
  ): Promise<R & { attempts: number }> {
    const headers: Record<string, string> = { accept };
    if (auth) headers.authorization = auth;
    if (body !== undefined) headers['content-type'] = contentType;
    if (!readOnly.has(method)) headers['x-atlassian-token'] = 'no-check';
    let waited = 0;
    for (let attempt = 0; ; attempt++) {
      const started = clock.now();
      let res: R | undefined;
      let failure: TransportError | undefined;
      try {
        res = await open({ method, url: target, headers, body });
      } catch (error) {
        if (!(error instanceof TransportError)) throw error;
        failure = error;
      }
      const ms = clock.now() - started;
      logger.log('debug', 'http', { method, url: target, status: res?.status ?? failure?.code, ms, attempt });
      const retryable = res
        ? res.status === 429 || (res.status >= 500 && idempotent.has(method))
        : !failure?.permanent && (idempotent.has(method) || !failure?.sent);
      const wait = retryDelay(attempt, retry, parseRetryAfter(res?.headers['retry-after'], clock.now()));
      const overBudget = retry.budgetMs !== undefined && waited + wait > retry.budgetMs;
      if (!retryable || attempt >= retry.retries || overBudget) {
        if (res) return Object.assign(res, { attempts: attempt + 1 });
        if (failure?.permanent) throw new RealmforgeError('validation', failure.message, { cause: failure });
        const after = attempt > 0 ? ` after ${attempt + 1} attempts` : '';
        throw new RealmforgeError(
          'transient',
          sentences(`${failure?.message}${after}`, 'Check --host, the network and --ca-file'),
          {
            cause: failure,
          },
        );
      }
      waited += wait;
      if (res) discard(res);
      const path = new URL(target).pathname;
      options.onRetry?.(
        wait,
        res
          ? `${method} ${path} answered ${res.status}`
          : `${method} ${path}: ${failure?.code ?? 'connection failed'}`,
      );
      logger.log('info', 'retrying', {
        method,
        url: target,
        status: res?.status ?? failure?.code,
        waitMs: wait,
      });
      await sleep(clock, wait);
    }
  }

  /** A failed answer as bbdc's error, told whether the request carried credentials (errorFromResponse). */
  const failed = (res: { status: number; attempts: number }, body: string, method: string, path: string) =>
    errorFromResponse(res.status, body, method, path, options.baseUrl, res.attempts, auth !== undefined);

  const client: BitbucketClient = {
    retries: retry.retries,
    baseUrl: options.baseUrl,
    get username() {
      return username;
    },
    async request<T>(
      method: string,
      path: string,
      opts: { query?: Query; body?: unknown; contentType?: string } = {},
    ) {
      const body = opts.body === undefined ? undefined : stringifyJson(opts.body);
      const res = await send(method, url(path, opts.query), body, undefined, opts.contentType);
      if (res.headers['x-ausername']) username = res.headers['x-ausername'];
      if (res.status >= 400) throw failed(res, res.body, method, path);
      if (!readOnly.has(method)) options.onAccepted?.({ method, path, status: res.status });
      let data: unknown;
      if (res.body) {
        try {
          data = parseJson(res.body);
        } catch {
          data = res.body;
        }
      }
      return { status: res.status, headers: res.headers, data: data as T };
    },
    async get<T>(path: string, query?: Query) {
      return (await client.request<T>('GET', path, { query })).data;
    },
    async stream(path: string, query?: Query) {
      const target = url(path, query);
      // A transport that cannot stream (a test's) gives its whole body as one chunk.
      const open = transport.open
        ? transport.open.bind(transport)
        : async (req: HttpRequest): Promise<OpenResponse> => {
            const res = await transport.send(req);
            const bytes = res.bytes ?? Buffer.from(res.body, 'utf8');
            return {
              ...res,
              body: (async function* () {
                yield bytes;
              })(),
              text: async () => res.body,
              discard: () => {},
            };
          };
      const res = await exchange('GET', target, undefined, 'application/json', '', open, (r) => r.discard());
      if (res.headers['x-ausername']) username = res.headers['x-ausername'];
      if (res.status >= 400) throw failed(res, await res.text(), 'GET', path);
      return res.body;
    },
    async bytes(path: string, query?: Query) {
      const res = await send('GET', url(path, query), undefined, '*/*');
      if (res.headers['x-ausername']) username = res.headers['x-ausername'];
      if (res.status >= 400) throw failed(res, res.body, 'GET', path);
      return res.bytes ?? Buffer.from(res.body, 'utf8');
    },
  };
  return client;
}
