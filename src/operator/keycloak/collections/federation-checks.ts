// What Keycloak itself says of a realm's federation: its connection and authentication test of an LDAP provider,
// a synchronisation of an LDAP provider's users, and whether it can read an identity provider's discovery or
// metadata URL (its import-config endpoint fetches and parses the document). Each is a POST that changes nothing
// in the realm's configuration but costs Keycloak (and the directory) work; when they run is the caller's choice
// (controllers/identity-realm/federation-status.ts). Each answers with an error message, never throws one a user
// caused.
import { RealmforgeError } from '../../../core/errors.ts';
import type { AdminClient } from '../admin-client.ts';

const enc = encodeURIComponent;
const errorOf = (error: unknown) => {
  if (error instanceof RealmforgeError) return error.message;
  throw error;
};

/** Calls Keycloak; an answer of 400 or more (the admin client returns 404 and 409) becomes an error. */
async function ask<T>(admin: AdminClient, ns: string, path: string, body?: unknown) {
  const res = await admin.call<T>(ns, 'POST', path, body);
  if (res.status >= 400) {
    const b = res.body as { errorMessage?: string; error?: string } | undefined;
    throw new RealmforgeError(
      'validation',
      `Keycloak POST ${path}: HTTP ${res.status} ${b?.errorMessage ?? b?.error ?? ''}`.trim(),
    );
  }
  return res;
}

/** Keycloak's connection and authentication test of LDAP provider `id` with `config`: undefined, or the error. */
export async function testLdap(
  admin: AdminClient,
  ns: string,
  realmName: string,
  id: string,
  config: object,
) {
  try {
    await ask(admin, ns, `/${enc(realmName)}/testLDAPConnection`, {
      ...config,
      action: 'testAuthentication',
      componentId: id,
    });
    return undefined;
  } catch (error) {
    return errorOf(error);
  }
}

/** Synchronises the users of LDAP provider `id` (all, or the changed ones): Keycloak's counts, or the error. */
export async function runLdapSync(
  admin: AdminClient,
  ns: string,
  realmName: string,
  id: string,
  mode: 'full' | 'changed',
) {
  const action = mode === 'full' ? 'triggerFullSync' : 'triggerChangedUsersSync';
  try {
    const res = await ask<Record<string, unknown>>(
      admin,
      ns,
      `/${enc(realmName)}/user-storage/${enc(id)}/sync?action=${action}`,
    );
    const r = res.body ?? {};
    const n = (k: string) => (typeof r[k] === 'number' ? (r[k] as number) : 0);
    return {
      added: n('added'),
      updated: n('updated'),
      removed: n('removed'),
      failed: n('failed'),
      status: String(r.status ?? ''),
    };
  } catch (error) {
    return { error: errorOf(error) };
  }
}

/** Whether Keycloak reads an identity provider's discovery or metadata document at `fromUrl`: undefined, or the
 * error. */
export async function discoveryError(
  admin: AdminClient,
  ns: string,
  realmName: string,
  providerId: string,
  fromUrl: string,
) {
  try {
    await ask(admin, ns, `/${enc(realmName)}/identity-provider/import-config`, { providerId, fromUrl });
    return undefined;
  } catch (error) {
    return errorOf(error);
  }
}
