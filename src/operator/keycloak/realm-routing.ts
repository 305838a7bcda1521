// Which identity makes an admin call: a call about one realm (`/<realm>/...`, a read of `/<realm>` included) uses
// that realm's identity (realm-identity.ts), so Keycloak refuses it anything outside that realm; creating a realm
// (POST to the realm list), deleting one (DELETE `/<realm>`), calls about master and the admin root (`../serverinfo`)
// use the master identity, and so do the calls about a realm that issues no tokens (disabled, or requiring HTTPS
// on a plain connection), with the roles of that realm Keycloak gave the master identity as its creator. The realms' admin clients (each with its cached token) are kept in a least-recently-used
// map of bounded size, so memory stays flat however many realms a server has.
import type { Clock } from '../../core/clock.ts';
import type { AdminClient, AdminResponse } from './admin-client.ts';
import { TokenRealmAbsentError, TokenRealmClosedError, TokenRefusedError } from './admin-identity.ts';
import { RealmIdentityRefusedError } from './realm-identity.ts';

/** How many realms' admin clients (and tokens) a server keeps at most: 1,000 realms fit. */
export const realmClientBound = 1000;

/** The realm whose identity makes the call, or undefined for the master identity. */
export function realmOfCall(method: string, path: string): string | undefined {
  if (path.startsWith('../')) return undefined;
  const [pathname = ''] = path.split('?', 1);
  const parts = pathname.split('/').filter(Boolean);
  if (!parts.length) return undefined;
  const realm = decodeURIComponent(parts[0] as string);
  if (realm === 'master') return undefined;
  if (method === 'DELETE' && parts.length === 1) return undefined;
  return realm;
}

/** A map that forgets its least recently used entry beyond `bound` entries. */
export function lru<V>(bound: number) {
  const map = new Map<string, V>();
  return {
    get size() {
      return map.size;
    },
    get(key: string, make: () => V): V {
      let value = map.get(key);
      if (value !== undefined) map.delete(key);
      else value = make();
      map.set(key, value);
      if (map.size > bound) map.delete(map.keys().next().value as string);
      return value;
    },
    has: (key: string) => map.has(key),
  };
}

/** How long a realm that issues no tokens goes straight to the master identity before its own is tried again. */
export const closedRealmMs = 5 * 60_000;

/** An admin client that sends each call with the identity `realmOfCall` names. */
export function routedAdmin(
  master: AdminClient,
  realmClient: (realm: string) => AdminClient,
  clock: Pick<Clock, 'now'> = { now: Date.now },
): AdminClient {
  // Realms that refused tokens (disabled, HTTPS required on a plain connection), until when: without it every call
  // about such a realm would first send a token request Keycloak refuses.
  const closed = new Map<string, number>();
  return {
    baseUrl: master.baseUrl,
    async call<T>(...args: Parameters<AdminClient['call']>): Promise<AdminResponse<T>> {
      const [, method, path] = args;
      const realm = realmOfCall(method, path);
      if (!realm) return master.call<T>(...args);
      if ((closed.get(realm) ?? 0) > clock.now()) return master.call<T>(...args);
      closed.delete(realm);
      try {
        return await realmClient(realm).call<T>(...args);
      } catch (error) {
        // No realm, no token endpoint: the realm is absent, as Keycloak answers a master admin.
        if (error instanceof TokenRealmAbsentError)
          return { status: 404, body: { error: 'Realm not found.' } as T };
        if (error instanceof TokenRealmClosedError) {
          if (closed.size >= realmClientBound) closed.delete(closed.keys().next().value as string);
          closed.set(realm, clock.now() + closedRealmMs);
          return master.call<T>(...args);
        }
        if (error instanceof TokenRefusedError)
          throw new RealmIdentityRefusedError(
            realm,
            `Keycloak refuses the operator's identity in realm ${realm} (${error.message}): its client was deleted or its secret changed; the realm's reconcile restores it with the master identity`,
            error,
          );
        throw error;
      }
    },
  };
}
