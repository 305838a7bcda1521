// The two checks behind Ready besides the Deployment: /health/ready on the management port answers UP, and the
// admin account gets a token (password grant, client admin-cli, realm master) on 8080. Both go through the
// endpoint map so that an operator outside the cluster reaches the same Keycloak.
import type { Deps } from '../../runtime/deps.ts';
import type { ProbeOutcome } from './server-stuck.ts';

const timeoutMs = 5000;

async function call(deps: Deps, url: string, init: Parameters<Deps['http']>[1] = {}) {
  return deps.http(deps.endpoints.resolve(url), { ...init, signal: AbortSignal.timeout(timeoutMs) });
}

function unreachable(url: string, error: unknown): ProbeOutcome {
  const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
  return { state: 'failed', message: `${url} is unreachable (${cause})` };
}

/** GET <management>/health/ready: ok when it answers 200 with status UP. */
export async function probeHealth(deps: Deps, managementUrl: string): Promise<ProbeOutcome> {
  const url = `${managementUrl}/health/ready`;
  try {
    const res = await call(deps, url);
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
    return unreachable(url, error);
  }
}

/** POST the password grant to <internal>/realms/master/protocol/openid-connect/token: ok when an access_token comes back. */
export async function probeAdminToken(
  deps: Deps,
  internalUrl: string,
  admin: { username: string; password: string },
): Promise<ProbeOutcome> {
  const url = `${internalUrl}/realms/master/protocol/openid-connect/token`;
  const body = new URLSearchParams({
    grant_type: 'password',
    client_id: 'admin-cli',
    username: admin.username,
    password: admin.password,
  });
  try {
    const res = await call(deps, url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: body.toString(),
    });
    const text = await res.text();
    let parsed: { access_token?: unknown; error?: unknown } = {};
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: reported by status below
    }
    if (res.status === 200 && typeof parsed.access_token === 'string') return { state: 'ok' };
    return {
      state: 'failed',
      message: `HTTP ${res.status}${parsed.error ? ` ${String(parsed.error)}` : ''}`,
    };
  } catch (error) {
    return unreachable(url, error);
  }
}
