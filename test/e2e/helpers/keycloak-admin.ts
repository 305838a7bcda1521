// Keycloak's admin REST API as an e2e test calls it: with a fresh token of the server's bootstrap admin (the
// `<server>-admin-credentials` Secret), JSON in and out, 404 as undefined, any other failure thrown with its body.
// The one place for the admin() helper suites used to repeat. Without a fixed URL the address is read from the
// endpoint map on every call: a restarted Keycloak process listens on a new port.
import type { TestEnv } from '../../../scripts/testenv/harness.ts';
import { loadEndpointMap } from '../../../src/operator/runtime/endpoint-map.ts';

type Call = (method: string, path: string, body?: unknown) => Promise<any>;

/** Calls `/admin/realms<path>` (also as `.call`); the answer's JSON, or undefined for 404 and empty answers. */
export type KeycloakAdmin = Call & {
  call: Call;
  /** Keycloak's base URL as the test reaches it now. */
  url(): string;
  /** An access token of the bootstrap admin from realm master. */
  token(): Promise<string>;
};

/** The admin API of the IdentityServer `server` in `ns`, at `keycloakUrl` or where the endpoint map says. */
export function keycloakAdmin(env: TestEnv, ns: string, keycloakUrl?: string, server = 'idp'): KeycloakAdmin {
  const url = () =>
    keycloakUrl ??
    loadEndpointMap(env.state.endpointMapFile).resolve(`http://${server}.${ns}.svc:8080`).replace(/\/$/, '');
  const token = async () => {
    const secret = await env.core.readNamespacedSecret({
      namespace: ns,
      name: `${server}-admin-credentials`,
    });
    const text = (k: string) => Buffer.from(secret.data?.[k] ?? '', 'base64').toString('utf8');
    const res = await fetch(`${url()}/realms/master/protocol/openid-connect/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'password',
        client_id: 'admin-cli',
        username: text('username'),
        password: text('password'),
      }),
    });
    if (res.status !== 200) throw new Error(`admin token from ${url()}: ${res.status} ${await res.text()}`);
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
