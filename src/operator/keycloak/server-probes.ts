// What a server's Keycloak answers. A deployed server's two checks behind Ready besides the Deployment:
// /health/ready on the management port answers UP, and an admin request succeeds through the server's admin client
// (its one token cache and password grant, its circuit breaker). Slow is not down: timeouts fit a loaded Keycloak,
// and a health endpoint that does not answer in time while admin requests succeed leaves the server Ready; only an
// answer that says DOWN, or failing requests, do not. An existing Keycloak (spec.external): what it says to the
// operator's identity.
import type { Deps } from '../runtime/deps.ts';
import type { AdminClient } from './admin-client.ts';
import { KeycloakReasonError } from './reason-error.ts';

/** What a probe of Keycloak found: not tried (the Deployment is not available yet), ok, or a failure message. */
export type ProbeOutcome =
  | { readonly state: 'skipped' }
  | { readonly state: 'ok' }
  | { readonly state: 'failed'; readonly message: string; readonly slow?: true; readonly reason?: string };

/** A loaded Keycloak may take seconds to answer /health/ready; 15 s is what the kubelet's probe gets at most. */
export const healthTimeoutMs = 15_000;

const timedOut = (error: unknown) =>
  ['TimeoutError', 'AbortError'].includes((error as Error).name) ||
  ['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT'].includes(
    String((error as { cause?: { code?: string } }).cause?.code),
  );

/** GET <management>/health/ready: ok when it answers 200 with status UP; `slow` when it did not answer in time. */
export async function probeHealth(deps: Deps, managementUrl: string): Promise<ProbeOutcome> {
  const url = `${managementUrl}/health/ready`;
  try {
    const res = await deps.http(deps.endpoints.resolve(url), {
      signal: AbortSignal.timeout(healthTimeoutMs),
    });
    const body = await res.text();
    let status: unknown;
    try {
      status = (JSON.parse(body) as { status?: unknown }).status;
    } catch {
      status = undefined;
    }
    if (res.status === 200 && status === 'UP') return { state: 'ok' };
    return { state: 'failed', message: `HTTP ${res.status}, status ${String(status ?? 'unknown')}` };
  } catch (error) {
    if (timedOut(error)) {
      return {
        state: 'failed',
        message: `${url} did not answer within ${healthTimeoutMs / 1000} s`,
        slow: true,
      };
    }
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
    return { state: 'failed', message: `${url} is unreachable (${cause})` };
  }
}

/** One admin call (the server info, which create-realm alone may read) with the server's master identity: ok when
 * it answers 200. */
export async function probeAdmin(
  admin: AdminClient | Promise<AdminClient>,
  namespace: string,
): Promise<ProbeOutcome> {
  try {
    // Getting the client may create the operator's own client first (admins.ts): its failure is the probe's.
    const res = await (await admin).call(namespace, 'GET', '../serverinfo');
    return res.status === 200 ? { state: 'ok' } : { state: 'failed', message: `HTTP ${res.status}` };
  } catch (error) {
    // A problem a person must fix (the operator's client taken in master) keeps its own reason.
    const reason = error instanceof KeycloakReasonError ? error.reason : undefined;
    return { state: 'failed', message: (error as Error).message, ...(reason ? { reason } : {}) };
  }
}

/**
 * What an existing Keycloak says to the operator's identity: the version its server info states (read each time:
 * this is the check that it answers), or, for an identity that may not read the server info but can still manage
 * realms, how it answers a read of the master realm.
 */
export async function externalAccess(
  admin: AdminClient,
  ns: string,
  stated?: string,
): Promise<{ version: string } | { masterStatus: number }> {
  const info = await admin.call<{ systemInfo?: { version?: string } }>(ns, 'GET', '../serverinfo');
  // Keycloak states its version only to a caller that may manage master: else the one read when the operator's
  // client was made (`stated`).
  const version = (info.status === 200 ? info.body?.systemInfo?.version : undefined) ?? stated;
  if (version) return { version };
  return { masterStatus: (await admin.call(ns, 'GET', '/master')).status };
}
