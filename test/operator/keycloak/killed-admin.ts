// Admin clients for crash and race tests: killedAfter fails every write after the first `n` (a process killed
// right after its n-th write: what it sent stays sent), and observed calls `after` once each call is answered.
import type { AdminClient } from '../../../src/operator/keycloak/admin-client.ts';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** `admin`, killed after its `n`-th write. */
export function killedAfter(admin: AdminClient, n: number): AdminClient {
  let sent = 0;
  return {
    ...admin,
    call: (ns: string, method: Method, path: string, body?: unknown) =>
      method !== 'GET' && sent++ >= n
        ? Promise.reject(new Error('killed'))
        : admin.call(ns, method, path, body),
  } as AdminClient;
}

/** `admin`, calling `after` once each call is answered (before its caller sees the answer). */
export function observed(admin: AdminClient, after: (method: Method, path: string) => Promise<void> | void) {
  return {
    ...admin,
    call: async (ns: string, method: Method, path: string, body?: unknown) => {
      const res = await admin.call(ns, method, path, body);
      await after(method, path);
      return res;
    },
  } as AdminClient;
}
