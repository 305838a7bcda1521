// Keycloak's admin REST API as an e2e test calls it, as a person with a master admin account would (password grant
// with admin-cli): JSON in and out, 404 as undefined, any other failure thrown with its body. keycloakAdmin uses
// the bootstrap admin of an IdentityServer (the `<server>-admin-credentials` Secret), at a fixed URL or where the
// endpoint map says on every call (a restarted Keycloak process listens on a new port); keycloakAdminApi any URL
// and account (an existing Keycloak, or an account changed behind the operator's back). Both read the account on
// every call.
import type { TestEnv } from '../../../scripts/testenv/harness.ts';
import { loadEndpointMap } from '../../../src/operator/runtime/endpoint-map.ts';

type Call = (method: string, path: string, body?: unknown) => Promise<any>;

/** Calls `/admin/realms<path>` (also as `.call`); the answer's JSON, or undefined for 404 and empty answers. */
export type KeycloakAdmin = Call & {
  call: Call;
  /** Keycloak's base URL as the test reaches it now. */
  url(): string;
  /** An access token of the account from realm master. */
  token(): Promise<string>;
};

/** A master admin account. */
export type AdminAccount = { username: string; password: string };

/** The admin API at `baseUrl()` with a fresh token of `account()` for each call. */
export function keycloakAdminApi(baseUrl: () => string, account: () => Promise<AdminAccount>): KeycloakAdmin {
  const url = () => baseUrl().replace(/\/$/, '');
  const token = async () => {
    const { username, password } = await account();
    const res = await fetch(`${url()}/realms/master/protocol/openid-connect/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'password', client_id: 'admin-cli', username, password }),
    });
    if (res.status !== 200) throw new Error(`admin token: HTTP ${res.status} ${await res.text()}`);
    return ((await res.json()) as { access_token: string }).access_token;
  };
  const call: Call = async (method, path, body) => {
    const res = await fetch(`${url()}/admin/realms${path}`, {
      method,
      headers: { authorization: `Bearer ${await token()}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status >= 300 && res.status !== 404) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return res.status === 404 ? undefined : text ? JSON.parse(text) : undefined;
  };
  return Object.assign(call, { call, url, token });
}

/** The admin API of the IdentityServer `server` in `ns`, at `keycloakUrl` or where the endpoint map says. */
export function keycloakAdmin(env: TestEnv, ns: string, keycloakUrl?: string, server = 'idp'): KeycloakAdmin {
  return keycloakAdminApi(
    () =>
      keycloakUrl ?? loadEndpointMap(env.state.endpointMapFile).resolve(`http://${server}.${ns}.svc:8080`),
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

/** Gives the operator's master identity the grant a `RealmGrantMissing` status `message` names for `realm` (the roles
 * of client `<realm>-realm` in master), as a person would after reading it. */
export async function giveNamedGrant(admin: Call, realm: string, message: string): Promise<void> {
  const user = /user (\S+) in master/.exec(message)?.[1];
  if (!user) throw new Error(`no master user named in: ${message}`);
  const [me] = await admin('GET', `/master/users?username=${encodeURIComponent(user)}&exact=true`);
  const [realmAdmin] = await admin('GET', `/master/clients?clientId=${encodeURIComponent(`${realm}-realm`)}`);
  const roles = (await admin('GET', `/master/clients/${realmAdmin.id}/roles`)) as { name: string }[];
  const named = roles.filter((r) => new RegExp(`\\b${r.name}\\b`).test(message));
  await admin('POST', `/master/users/${me.id}/role-mappings/clients/${realmAdmin.id}`, named);
}
