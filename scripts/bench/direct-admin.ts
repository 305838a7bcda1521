// The plain scripts the operator benches compare with: admin calls with a token from `form` issued by `realm`
// (master's bootstrap admin by password grant, as teams script it; or a service-account client inside the realm it
// reads); a fresh token on 401. Token requests are not counted, as for the operator.

/** An admin call: the answer's JSON (undefined when empty); a status of 300 or more throws. */
export type Admin = (method: string, path: string, body?: unknown) => Promise<any>;

export async function directAdmin(
  baseUrl: string,
  form: URLSearchParams,
  realm = 'master',
): Promise<{ call: Admin; calls: () => number }> {
  // Admin calls only (token requests are not counted, as for the operator); a fresh token on 401 (they last 60 s).
  let calls = 0;
  const login = async () => {
    const res = await fetch(`${baseUrl}/realms/${realm}/protocol/openid-connect/token`, {
      method: 'POST',
      body: form,
    });
    const token = ((await res.json()) as { access_token?: string }).access_token;
    if (!token) throw new Error(`no access token from realm ${realm}: HTTP ${res.status}`);
    return token;
  };
  let token = await login();
  const send = (method: string, path: string, body: unknown) =>
    fetch(`${baseUrl}/admin/realms${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  return {
    calls: () => calls,
    call: async (method, path, body) => {
      calls++;
      let r = await send(method, path, body);
      if (r.status === 401) {
        await r.arrayBuffer();
        token = await login();
        r = await send(method, path, body);
      }
      const text = await r.text();
      if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${text.slice(0, 200)}`);
      return text ? JSON.parse(text) : undefined;
    },
  };
}

/** The size in bytes of an access token issued for `form` (what travels in every admin call's header). */
export async function tokenBytes(baseUrl: string, form: URLSearchParams): Promise<number> {
  const res = await fetch(`${baseUrl}/realms/master/protocol/openid-connect/token`, {
    method: 'POST',
    body: form,
  });
  const token = ((await res.json()) as { access_token?: string }).access_token;
  if (!token) throw new Error(`no access token: HTTP ${res.status}`);
  return Buffer.byteLength(token);
}
