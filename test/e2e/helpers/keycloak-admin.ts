// Admin REST calls to the Keycloak of an IdentityServer, as its bootstrap admin (the <server>-admin-credentials
// Secret), the way a person with that Secret would look at Keycloak. The address is read from the endpoint map on
// every call: a restarted Keycloak process listens on a new port.
import type { TestEnv } from '../../../scripts/testenv/harness.ts';
import { loadEndpointMap } from '../../../src/operator/runtime/endpoint-map.ts';

export type KeycloakAdmin = {
  /** Keycloak's base URL as the test reaches it now. */
  url(): string;
  /** An access token of the bootstrap admin from realm master. */
  token(): Promise<string>;
  /** `method` on /admin/realms`path`: the parsed answer, undefined on 404; any other failure throws. */
  call(method: string, path: string, body?: unknown): Promise<any>;
};

export function keycloakAdmin(env: TestEnv, namespace: string, server = 'idp'): KeycloakAdmin {
  const url = () =>
    loadEndpointMap(env.state.endpointMapFile)
      .resolve(`http://${server}.${namespace}.svc:8080`)
      .replace(/\/$/, '');
  const token = async () => {
    const secret = await env.core.readNamespacedSecret({ namespace, name: `${server}-admin-credentials` });
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
  return {
    url,
    token,
    async call(method, path, body) {
      const res = await fetch(`${url()}/admin/realms${path}`, {
        method,
        headers: { authorization: `Bearer ${await token()}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      if (res.status >= 300 && res.status !== 404)
        throw new Error(`${method} ${path}: ${res.status} ${text}`);
      return res.status === 404 ? undefined : text ? JSON.parse(text) : undefined;
    },
  };
}
