// Keycloak's admin REST API as an e2e test calls it: with a fresh token of the server's bootstrap admin (the
// `<server>-admin-credentials` Secret), JSON in and out, 404 as undefined, any other failure thrown with its body.
import type { TestEnv } from '../../../scripts/testenv/harness.ts';

/** Calls `/admin/realms<path>`; the answer's JSON, or undefined for 404 and empty answers. */
export type KeycloakAdmin = (method: string, path: string, body?: unknown) => Promise<any>;

/** The admin API of the IdentityServer `server` in `ns`, answering at `keycloakUrl`. */
export function keycloakAdmin(env: TestEnv, ns: string, keycloakUrl: string, server = 'idp'): KeycloakAdmin {
  async function token(): Promise<string> {
    const secret = await env.core.readNamespacedSecret({
      namespace: ns,
      name: `${server}-admin-credentials`,
    });
    const text = (k: string) => Buffer.from(secret.data?.[k] ?? '', 'base64').toString('utf8');
    const res = await fetch(`${keycloakUrl}/realms/master/protocol/openid-connect/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'password',
        client_id: 'admin-cli',
        username: text('username'),
        password: text('password'),
      }),
    });
    return ((await res.json()) as { access_token: string }).access_token;
  }
  return async (method, path, body) => {
    const res = await fetch(`${keycloakUrl}/admin/realms${path}`, {
      method,
      headers: { authorization: `Bearer ${await token()}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status >= 300 && res.status !== 404) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return res.status === 404 ? undefined : text ? JSON.parse(text) : undefined;
  };
}
