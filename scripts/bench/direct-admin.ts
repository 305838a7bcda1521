// The floor the operator benches compare with: a plain script doing the minimal admin calls with a token from
// `form` (the bootstrap admin's password grant, or the operator's client: its lightweight token stays small at
// any realm count, where the admin's grows with every realm); a fresh token on 401. Token requests are not
// counted, as for the operator.

export type Admin = (method: string, path: string, body?: unknown) => Promise<Response>;

export async function directAdmin(
  baseUrl: string,
  form: URLSearchParams,
): Promise<{ call: Admin; calls: () => number }> {
  // Admin calls only (token requests are not counted, as for the operator); a fresh token on 401 (they last 60 s).
  let calls = 0;
  const login = async () => {
    const res = await fetch(`${baseUrl}/realms/master/protocol/openid-connect/token`, {
      method: 'POST',
      body: form,
    });
    return ((await res.json()) as { access_token: string }).access_token;
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
      await r.arrayBuffer();
      if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status}`);
      return r;
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
