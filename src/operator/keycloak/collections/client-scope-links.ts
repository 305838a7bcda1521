// A client's default and optional client scopes: links to the realm's scopes by id, checked by name against the
// realm's scopes, and added or removed one by one where the client differs from its spec (Keycloak has no call that
// sets the whole list). The client's list answer carries its links by name, so a steady resync reads nothing here.
import type ClientRepresentation from '@keycloak/keycloak-admin-client/lib/defs/clientRepresentation.js';
import { RealmforgeError } from '../../../core/errors.ts';
import type { AdminClient } from '../admin-client.ts';

const enc = encodeURIComponent;

const scopeKinds = [
  ['defaultClientScopes', 'default-client-scopes'],
  ['optionalClientScopes', 'optional-client-scopes'],
] as const;

/** The realm's client scopes by name, after checking that each one `desired` names exists (one read). */
export async function realmScopes(
  admin: AdminClient,
  ns: string,
  realm: string,
  desired: ClientRepresentation,
) {
  const scopes =
    (await admin.call<{ id?: string; name?: string }[]>(ns, 'GET', `/${enc(realm)}/client-scopes`)).body ??
    [];
  for (const [field] of scopeKinds)
    for (const name of desired[field] ?? [])
      if (!scopes.some((s) => s.name === name))
        throw new RealmforgeError(
          'validation',
          `spec.${field} names client scope "${name}", which realm ${realm} does not have`,
        );
  return scopes;
}

/** Adds and removes the scope links of client `live` where it differs from `desired`; returns the writes. */
export async function syncClientScopeLinks(
  admin: AdminClient,
  ns: string,
  realm: string,
  desired: ClientRepresentation,
  live: ClientRepresentation,
): Promise<string[]> {
  const writes: string[] = [];
  const base = `/${enc(realm)}/clients/${enc(live.id ?? '')}`;
  let scopes: { id?: string; name?: string }[] | undefined;
  for (const [field, path] of scopeKinds) {
    const want = desired[field];
    if (!want) continue;
    const have = live[field] ?? [];
    const add = want.filter((s) => !have.includes(s));
    const remove = have.filter((s) => !want.includes(s));
    if (!add.length && !remove.length) continue;
    scopes ??= await realmScopes(admin, ns, realm, desired);
    for (const [names, method] of [
      [add, 'PUT'],
      [remove, 'DELETE'],
    ] as const) {
      for (const name of names) {
        const id = scopes.find((s) => s.name === name)?.id ?? '';
        await admin.call(ns, method, `${base}/${path}/${enc(id)}`);
        writes.push(`${method === 'PUT' ? 'add' : 'remove'} ${path} ${name}`);
      }
    }
  }
  return writes;
}
