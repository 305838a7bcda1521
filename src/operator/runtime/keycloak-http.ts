// HTTP to Keycloak over undici. A request's fence (a write's) is checked once more as it is written to its
// connection, so a replica deposed while the request waited for one sends nothing.
import { Agent, type Dispatcher, fetch as undiciFetch } from 'undici';
import type { HttpClient } from './deps.ts';
import { checkedAtWrite } from './fence.ts';

/** Keep-alive connections with connect and header timeouts; `ca` is trusted (PEM) instead of the system's roots
 * when given (an existing Keycloak's spec.external CA). */
export const keycloakAgent = (ca?: string) =>
  new Agent({
    connectTimeout: 5000,
    // Above the longest per-call timeout (a realm create may be given up to 10 minutes, realm-create-timeout.ts):
    // each call's own AbortSignal decides when to give up.
    headersTimeout: 610_000,
    bodyTimeout: 610_000,
    ...(ca ? { connect: { ca } } : {}),
  });

/** Requests over `dispatcher`. */
export function keycloakHttp(dispatcher: Dispatcher = keycloakAgent()): HttpClient {
  return (url, { fence, ...init } = {}) =>
    undiciFetch(url, { ...init, dispatcher: checkedAtWrite(dispatcher, fence) });
}
