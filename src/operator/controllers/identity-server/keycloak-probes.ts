// The two checks behind Ready besides the Deployment: /health/ready on the management port answers UP, and an
// admin call succeeds through the server's admin client (its one token cache and password grant, its circuit
// breaker). Slow is not down: timeouts fit a loaded Keycloak, and a health endpoint that does not answer in time
// while admin calls succeed leaves the server Ready; only an answer that says DOWN, or failing calls, do not.
import type { AdminClient } from '../../keycloak/admin-client.ts';
import { KeycloakReasonError } from '../../keycloak/reason-error.ts';
import type { Deps } from '../../runtime/deps.ts';
import type { ProbeOutcome } from './server-stuck.ts';

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
