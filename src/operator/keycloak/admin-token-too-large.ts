// Keycloak refuses a request whose headers exceed its limit (quarkus.http.limits.max-header-size: Quarkus's 20K on
// Keycloak 25.0.6, 65535 set by Keycloak 26.7.3) with HTTP 431 and an empty body (checked against 26.7.3 started
// with QUARKUS_HTTP_LIMITS_MAX_HEADER_SIZE=700 and a 751-byte token), or a proxy in front of it with a 400 that says so. For the admin API that header is the bearer token: a master admin's
// token lists every realm's management roles and grows with each realm (keycloak/keycloak#25498, at about 100-150
// realms). Retrying cannot help, so it is a named error that a person fixes, not "Keycloak unavailable".
import { KeycloakReasonError } from './reason-error.ts';

/** The status reason realms and clients show for it. */
export const adminTokenTooLargeReason = 'AdminTokenTooLarge';

/** Keycloak (or a proxy before it) refused the admin token because the request headers are too large. */
export class AdminTokenTooLargeError extends KeycloakReasonError {
  constructor(baseUrl: string, method: string, path: string, status: number, tokenBytes: number) {
    super(
      'internal',
      adminTokenTooLargeReason,
      `Keycloak at ${baseUrl} refused ${method} ${path} with HTTP ${status}: the request headers are too large ` +
        `(the admin access token is ${tokenBytes} bytes; a master admin's token lists the management roles of ` +
        'every realm). Fix: give the operator an identity whose token does not grow with the realm count ' +
        '(a service-account client with lightweight access tokens, attribute ' +
        'client.use.lightweight.access.token.enabled=true), or raise the header limit of Keycloak and of any ' +
        'proxy before it (QUARKUS_HTTP_LIMITS_MAX_HEADER_SIZE: 20K by default on Keycloak 25, 64K on 26.7); the operator retries every drift interval',
    );
    this.name = 'AdminTokenTooLargeError';
  }
}

/** Whether an answer means the request headers were too large: 431, or a 400 whose text says so. */
export function headersTooLarge(status: number, body: unknown): boolean {
  if (status === 431) return true;
  if (status !== 400) return false;
  const text = typeof body === 'string' ? body : JSON.stringify(body ?? '');
  // nginx: "Request Header Or Cookie Too Large"; others: "header too long", "headers are too big".
  return /header/i.test(text) && /too (large|big|long)/i.test(text);
}
