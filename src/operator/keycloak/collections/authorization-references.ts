// Before a policy is written, every realm object it names (roles, groups, clients, users, client scopes) is looked
// up: Keycloak answers a policy naming a missing one with an internal error (500, retried as if Keycloak were
// down), so the operator checks first and refuses with the field and the name. Runs only before a write, so a
// steady resync reads nothing here.
import { RealmforgeError } from '../../../core/errors.ts';
import type { AdminClient } from '../admin-client.ts';
import type { Item } from './collection.ts';

const enc = encodeURIComponent;

/** The collection's `resolve` for policies in `realm`: checks the references, returns the item unchanged. */
export function policyReferencesExist(realm: string) {
  return async (admin: AdminClient, ns: string, item: Item): Promise<Item> => {
    const send = (item.send ?? {}) as Record<string, unknown>;
    const at = `spec.authorization.policies[${String(item.name)}]`;
    const r = `/${enc(realm)}`;
    const missing = (field: string, what: string, name: string) =>
      new RealmforgeError(
        'validation',
        `${at}.${field}: realm ${realm} has no ${what} "${name}"; create it or fix the name`,
      );
    const found = async (path: string) => {
      const res = await admin.call<unknown>(ns, 'GET', path);
      return res.status === 200 && !(Array.isArray(res.body) && res.body.length === 0);
    };
    const clientUuid = async (clientId: string) =>
      (
        await admin.call<{ id: string; clientId: string }[]>(
          ns,
          'GET',
          `${r}/clients?clientId=${enc(clientId)}`,
        )
      ).body?.find((c) => c.clientId === clientId)?.id;
    for (const { id } of (send.roles ?? []) as { id: string }[]) {
      const slash = id.indexOf('/');
      if (slash < 0) {
        if (!(await found(`${r}/roles/${enc(id)}`))) throw missing('roles', 'realm role', id);
        continue;
      }
      const uuid = await clientUuid(id.slice(0, slash));
      if (!uuid || !(await found(`${r}/clients/${enc(uuid)}/roles/${enc(id.slice(slash + 1))}`)))
        throw missing('roles', 'client role', id);
    }
    for (const { path } of (send.groups ?? []) as { path: string }[]) {
      const segments = path.split('/').filter(Boolean).map(enc).join('/');
      if (!(await found(`${r}/group-by-path/${segments}`))) throw missing('groups', 'group', path);
    }
    for (const clientId of (send.clients ?? []) as string[])
      if (!(await clientUuid(clientId))) throw missing('clients', 'client', clientId);
    for (const username of (send.users ?? []) as string[]) {
      const users = (
        await admin.call<{ username: string }[]>(ns, 'GET', `${r}/users?username=${enc(username)}&exact=true`)
      ).body;
      if (!users?.some((u) => u.username === username.toLowerCase()))
        throw missing('users', 'user', username);
    }
    const scopes = (send.clientScopes ?? []) as { id: string }[];
    if (scopes.length) {
      const live = (await admin.call<{ name: string }[]>(ns, 'GET', `${r}/client-scopes`)).body ?? [];
      for (const { id } of scopes)
        if (!live.some((s) => s.name === id)) throw missing('clientScopes', 'client scope', id);
    }
    return item;
  };
}
