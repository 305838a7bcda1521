import { Agent, errors, request } from 'undici';
import type { HttpRequest, HttpResponse, Transport, TransportOptions } from './transport-types.ts';
import { TransportError } from './transport-types.ts';

// Codes undici or the OS give when the connection never opened, so nothing of the request was sent.
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
  'UND_ERR_CONNECT_TIMEOUT',
]);

function errorCode(error: unknown): string {
  let current: unknown = error;
  while (current && typeof current === 'object') {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && code !== 'UND_ERR_SOCKET') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return (error as { code?: string })?.code ?? 'UNKNOWN';
}

/** An undici transport with its own Agent: CA bundle, insecure mode and header/body timeouts. */
export function createUndiciTransport(options: TransportOptions): Transport {
  const agent = new Agent({
    connect: { ca: options.ca, rejectUnauthorized: !options.insecure, timeout: options.timeoutMs },
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
  });
  return {
    async send(req: HttpRequest): Promise<HttpResponse> {
      try {
        const res = await request(req.url, {
          method: req.method as 'GET',
          headers: req.headers,
          body: req.body,
          dispatcher: agent,
        });
        const bytes = Buffer.from(await res.body.arrayBuffer());
        const body = bytes.toString('utf8');
        const headers: Record<string, string | undefined> = {};
        for (const [k, v] of Object.entries(res.headers))
          headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
        return { status: res.statusCode, headers, body, bytes };
      } catch (error) {
        const code = errorCode(error);
        const timedOut =
          error instanceof errors.HeadersTimeoutError || error instanceof errors.BodyTimeoutError;
        const what = timedOut ? `no answer within ${options.timeoutMs} ms` : (error as Error).message;
        const tls = tlsCodes.has(code);
        const hint = tls
          ? '; trust the server with --ca-file <pem> (or, unsafely, --insecure-skip-verify)'
          : '';
        throw new TransportError(
          `${req.method} ${req.url}: ${what} (${code})${hint}`,
          code,
          !notSentCodes.has(code),
          error,
          tls,
        );
      }
    },
    async close() {
      await agent.close();
    },
  };
}
