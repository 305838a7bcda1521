// HTTP over Node's own http/https modules: they are part of the executable, so a command's first request costs no
// library import on every run. HTTPS_PROXY / HTTP_PROXY / NO_PROXY are
// honoured by Node's built-in proxy support (Agent `proxyEnv`), with the configured CA and TLS verification applied
// to the server's certificate through the tunnel.
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { UsageError } from '../../core/errors.ts';
import type {
  HttpRequest,
  HttpResponse,
  OpenResponse,
  Transport,
  TransportOptions,
} from './transport-types.ts';
import { TransportError } from './transport-types.ts';

// Codes the OS or TLS give when the connection never opened, so nothing of the request was sent.
const tlsCodes = new Set([
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);
const notSentCodes = new Set([
  ...tlsCodes,
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNECT_TIMEOUT',
  'ERR_PROXY_TUNNEL',
]);
// process.getBuiltinModule, not `import`: an ES module import of node:http builds a facade that reads every export,
// and node:http's WebSocket export loads Node's bundled undici for nothing.
const { Agent: HttpAgent, request: httpRequest } = process.getBuiltinModule('node:http');
// node:https (TLS, the CA store) is loaded by the first https:// request only: it is large.
const https = () => process.getBuiltinModule('node:https');
const proxyNames = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'NO_PROXY', 'no_proxy'];

/** The proxy variables of an environment (both spellings, as curl and git read them); undefined when none is set. */
export function proxyVariables(env: Readonly<Record<string, string | undefined>>) {
  const picked = Object.fromEntries(proxyNames.filter((n) => env[n]).map((n) => [n, env[n] as string]));
  return Object.keys(picked).some((n) => !/no_proxy/i.test(n)) ? picked : undefined;
}

/** Whether this Node can tunnel through a proxy by itself (Agent `proxyEnv`, Node 22.21 and 24.5 on). */
function nodeHasProxySupport(): boolean {
  const probe = new HttpAgent({ proxyEnv: { HTTP_PROXY: 'http://127.0.0.1:9' } } as object);
  return Object.getOwnPropertySymbols(probe).some((s) => /proxy/i.test(String(s)));
}

type Raw = { status: number; headers: IncomingHttpHeaders; body: Buffer };

/** Creates the agents once per run: keep-alive connections, the CA bundle, insecure mode, the proxy. */
export function createHttpTransport(options: TransportOptions): Transport & {
  exchange(req: HttpRequest): Promise<Raw>;
} {
  const proxyEnv = proxyVariables(options.env ?? {});
  if (proxyEnv && !nodeHasProxySupport()) {
    throw new UsageError(
      `${Object.keys(proxyEnv)[0]} is set but Node ${process.versions.node} cannot use a proxy; run bbdc on Node 22.21 or 24.5 and later, or use the bbdc executable`,
    );
  }
  const http = new HttpAgent({ keepAlive: true, ...(proxyEnv && { proxyEnv }) } as object);
  let tlsAgent: import('node:https').Agent | undefined;
  const httpsAgent = () =>
    (tlsAgent ??= new (https().Agent)({
      keepAlive: true,
      ca: options.ca,
      rejectUnauthorized: !options.insecure,
      ...(proxyEnv && { proxyEnv }),
    } as object));

  // Resolves at the response's headers; the body is read by the caller. A failure before then rejects, one after
  // (a reset, --request-timeout while the body arrives) goes to `later`.
  const start = (req: HttpRequest, later: (error: TransportError) => void): Promise<IncomingMessage> =>
    new Promise((resolve, reject) => {
      const url = new URL(req.url);
      const tls = url.protocol === 'https:';
      let connected = false;
      let answered = false;
      const fail = (error: NodeJS.ErrnoException) =>
        answered ? later(transportError(req, error)) : reject(transportError(req, error));
      const r = (tls ? https().request : httpRequest)(
        url,
        {
          method: req.method,
          // Node sends a DELETE body without a length (not chunked), so the server would never read it.
          headers:
            req.body === undefined
              ? req.headers
              : { ...req.headers, 'content-length': String(Buffer.byteLength(req.body)) },
          agent: tls ? httpsAgent() : http,
          timeout: options.timeoutMs,
        },
        (res) => {
          answered = true;
          res.on('error', fail);
          resolve(res);
        },
      );
      r.on('socket', (socket) => {
        if (!socket.connecting) connected = true;
        else socket.once(tls ? 'secureConnect' : 'connect', () => (connected = true));
      });
      r.on('timeout', () => {
        const error: NodeJS.ErrnoException = connected
          ? new Error(`no answer within ${options.timeoutMs} ms`)
          : new Error(`could not connect within ${options.timeoutMs} ms`);
        error.code = connected ? 'ETIMEDOUT' : 'ECONNECT_TIMEOUT';
        r.destroy(error);
      });
      r.on('error', fail);
      r.end(req.body);
    });

  const exchange = (req: HttpRequest): Promise<Raw> =>
    new Promise((resolve, reject) => {
      start(req, reject).then((res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      }, reject);
    });

  return {
    exchange,
    async open(req: HttpRequest): Promise<OpenResponse> {
      // A failure while the body arrives ends the body's iteration with it, as a TransportError.
      let broken: TransportError | undefined;
      const res = await start(req, (error) => {
        broken ??= error;
      });
      return {
        status: res.statusCode ?? 0,
        headers: lowerCase(res.headers),
        body: (async function* () {
          try {
            for await (const chunk of res) yield chunk as Buffer;
          } catch (error) {
            throw broken ?? transportError(req, error as NodeJS.ErrnoException);
          }
          if (broken) throw broken;
        })(),
        text: async () => {
          const chunks: Buffer[] = [];
          for await (const chunk of res) chunks.push(chunk as Buffer);
          return Buffer.concat(chunks).toString('utf8');
        },
        discard: () => void res.resume(),
      };
    },
    async send(req: HttpRequest): Promise<HttpResponse> {
      const raw = await exchange(req);
      return {
        status: raw.status,
        headers: lowerCase(raw.headers),
        body: raw.body.toString('utf8'),
        bytes: raw.body,
      };
    },
    async close() {
      http.destroy();
      tlsAgent?.destroy();
    },
  };
}

function transportError(req: HttpRequest, error: NodeJS.ErrnoException): TransportError {
  const code = error.code ?? 'UNKNOWN';
  const hint = tlsCodes.has(code)
    ? '; trust the server with --ca-file <pem> (or, unsafely, --insecure-skip-verify)'
    : code === 'ERR_PROXY_TUNNEL'
      ? '; check HTTPS_PROXY/HTTP_PROXY, or add the host to NO_PROXY'
      : '';
  return new TransportError(
    `${req.method} ${req.url}: ${error.message} (${code})${hint}`,
    code,
    !notSentCodes.has(code),
    error,
    tlsCodes.has(code),
  );
}

function lowerCase(raw: IncomingHttpHeaders): Record<string, string | undefined> {
  const headers: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(raw)) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return headers;
}
