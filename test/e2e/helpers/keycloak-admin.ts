// A test's own view of a Keycloak's admin API, as a person with a master admin account would use it (password
// grant with admin-cli): to create things "by hand", to change them behind the operator's back, and to check what
// the operator did. The base URL and the account are read on every call (a restarted Keycloak moves ports).
export type AdminAccount = { username: string; password: string };

/** `admin(method, path, body)`: a call under /admin/realms; 404 gives undefined, other failures throw. */
export function keycloakAdminApi(baseUrl: () => string, account: () => Promise<AdminAccount>) {
  return async function admin(method: string, path: string, body?: unknown): Promise<any> {
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
    const out = await res.text();
    if (res.status >= 300 && res.status !== 404) throw new Error(`${method} ${path}: ${res.status} ${out}`);
    return res.status === 404 ? undefined : out ? JSON.parse(out) : undefined;
  };
}
