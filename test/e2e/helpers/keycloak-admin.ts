// Keycloak's admin REST API as an e2e test calls it, as a person with a master admin account would (password grant
// with admin-cli): JSON in and out, 404 as undefined, any other failure thrown with its body. keycloakAdmin uses
// the bootstrap admin of an IdentityServer (the `<server>-admin-credentials` Secret); keycloakAdminApi any URL and
// account (an existing Keycloak, or an account changed behind the operator's back). Both read the account on every
// call.
import type { TestEnv } from '../../../scripts/testenv/harness.ts';

/** Calls `/admin/realms<path>`; the answer's JSON, or undefined for 404 and empty answers. */
export type KeycloakAdmin = (method: string, path: string, body?: unknown) => Promise<any>;

/** A master admin account. */
export type AdminAccount = { username: string; password: string };

/** The admin API at `baseUrl()` with a fresh token of `account()` for each call. */
export function keycloakAdminApi(baseUrl: () => string, account: () => Promise<AdminAccount>): KeycloakAdmin {
  return async function admin(method, path, body) {
    const url = baseUrl().replace(/\/$/, '');
    const { username, password } = await account();
    const token = await fetch(`${url}/realms/master/protocol/openid-connect/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'password', client_id: 'admin-cli', username, password }),
    });
    if (token.status !== 200) throw new Error(`admin token: HTTP ${token.status} ${await token.text()}`);
    const { access_token } = (await token.json()) as { access_token: string };
    const res = await fetch(`${url}/admin/realms${path}`, {
      method,
      headers: { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status >= 300 && res.status !== 404) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return res.status === 404 ? undefined : text ? JSON.parse(text) : undefined;
  };
}

/** The admin API of the IdentityServer `server` in `ns`, answering at `keycloakUrl`. */
export function keycloakAdmin(env: TestEnv, ns: string, keycloakUrl: string, server = 'idp'): KeycloakAdmin {
  return keycloakAdminApi(
    () => keycloakUrl,
    async () => {
      const secret = await env.core.readNamespacedSecret({
        namespace: ns,
        name: `${server}-admin-credentials`,
      });
      const text = (k: string) => Buffer.from(secret.data?.[k] ?? '', 'base64').toString('utf8');
      return { username: text('username'), password: text('password') };
    },
  );
}
