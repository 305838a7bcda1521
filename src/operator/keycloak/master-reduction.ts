// Servers that ran an earlier release: their realms carry no realm identity, and the operator's master identity
// holds master's `admin` (or, on Keycloak 25, was the bootstrap admin). Before the master identity is reduced to
// create-realm, every realm the operator made (realm attribute realmforge.dev/owner) gets its identity, and the
// master identity the roles of `<realm>-realm` that Keycloak gives a realm's creator (restoring that identity and
// deleting the realm need them). The steps are idempotent and `admin` goes last, so a crash between them leaves a
// master identity that still holds `admin`, and the next pass repeats them.
import { RealmforgeError } from '../../core/errors.ts';
import type { AdminClient } from './admin-client.ts';
import { ownerAttribute } from './collections/collection.ts';
import { readRecord } from './collections/record.ts';
import { isOperatorAccount } from './operator-account.ts';
import { ensureRealmIdentity, grantMasterInRealm } from './realm-identity.ts';

const enc = encodeURIComponent;

type Realm = { realm: string; attributes?: Record<string, string> };
const realmsOf = async (client: AdminClient, ns: string) =>
  (await client.call<Realm[]>(ns, 'GET', '')).body ?? [];

/** The IdentityRealm a realm's ownership record names (an earlier version's owner attribute included); none for a
 * record that does not parse: that realm's own reconcile reports it. */
const ownerOf = ({ attributes }: Realm) => {
  try {
    return readRecord(attributes)?.owner;
  } catch {
    return undefined;
  }
};

/** The server's IdentityRealms (their owner marks, `namespace/name`) and their realms' identity secrets. */
export type ServerRealms = { owners: ReadonlySet<string>; secretOf(realm: string): string };

/**
 * With `privileged` (an identity that may manage every realm): gives each realm of the server's IdentityRealms its
 * realm identity and `masterUser` the creator's roles there. Returns what it changed, per realm.
 */
export async function adoptOperatorRealms(
  privileged: AdminClient,
  ns: string,
  masterUser: string,
  { owners, secretOf }: ServerRealms,
): Promise<string[]> {
  const changes: string[] = [];
  for (const r of await realmsOf(privileged, ns)) {
    const realm = r.realm;
    if (realm === 'master' || !owners.has(ownerOf(r) ?? '')) continue;
    const done = [
      ...(await ensureRealmIdentity(privileged, ns, realm, secretOf(realm))),
      ...(await grantMasterInRealm(privileged, ns, realm, masterUser)),
    ];
    if (done.length) changes.push(`realm ${realm}: ${done.join(', ')}`);
  }
  return changes;
}

/**
 * When the master identity (`master`, user `masterUser`) is the operator's own (its client or account, marked) and
 * still holds master's `admin`:
 * adopts the operator's realms with it (adoptOperatorRealms), then takes `admin` from it. Returns what it did;
 * empty when there was nothing to do (the master identity may not read master's users: it holds no `admin`).
 */
export async function reduceMasterIdentity(
  master: AdminClient,
  ns: string,
  masterUser: string,
  realms: ServerRealms,
): Promise<string[]> {
  // A master identity without `admin` may not read master's users: Keycloak answers 403.
  const user = await master
    .call<{ id: string; firstName?: string; lastName?: string }[]>(
      ns,
      'GET',
      `/master/users?username=${enc(masterUser)}&exact=true`,
    )
    .then(
      (res) => res.body?.[0],
      (error: unknown) => {
        if (error instanceof RealmforgeError && error.kind === 'auth') return undefined;
        throw error;
      },
    );
  if (!user || !(isOperatorAccount(user) || (await ownClient(master, ns, masterUser)))) return [];
  const mappings = `/master/users/${enc(user.id)}/role-mappings/realm`;
  const admin = (await master.call<{ id: string; name: string }[]>(ns, 'GET', mappings)).body?.find(
    (r) => r.name === 'admin',
  );
  if (!admin) return [];
  const adopted = await adoptOperatorRealms(master, ns, masterUser, realms);
  await master.call(ns, 'DELETE', mappings, [admin]);
  return [...adopted, `took master's role admin from ${masterUser}: it keeps create-realm`];
}

/** Whether `masterUser` is the service account of a client the operator made (its mark): a client the user gave
 * for an existing Keycloak keeps its roles. */
async function ownClient(master: AdminClient, ns: string, masterUser: string): Promise<boolean> {
  const prefix = 'service-account-';
  if (!masterUser.startsWith(prefix)) return false;
  const clientId = masterUser.slice(prefix.length);
  const found = await master.call<{ attributes?: Record<string, string> }[]>(
    ns,
    'GET',
    `/master/clients?clientId=${enc(clientId)}`,
  );
  return found.body?.[0]?.attributes?.[ownerAttribute] === 'operator';
}

/**
 * With the bootstrap admin, for a master identity just created (`masterUser`): when Keycloak already has realms an
 * operator made (an earlier release on Keycloak 25 used the bootstrap admin and made no master identity; or the
 * master identity was deleted by hand, its grants with it), grants it master's `admin` until reduceMasterIdentity
 * has adopted them: one mechanism for every upgrade. Returns whether it did.
 */
export async function holdAdminForAdoption(
  bootstrap: AdminClient,
  ns: string,
  masterUser: string,
): Promise<boolean> {
  const made = (await realmsOf(bootstrap, ns)).some((r) => r.realm !== 'master' && ownerOf(r));
  if (!made) return false;
  const [user] =
    (
      await bootstrap.call<{ id: string }[]>(
        ns,
        'GET',
        `/master/users?username=${enc(masterUser)}&exact=true`,
      )
    ).body ?? [];
  const admin = (await bootstrap.call<{ id: string; name: string }>(ns, 'GET', '/master/roles/admin')).body;
  if (!user?.id || !admin?.id) return false;
  await bootstrap.call(ns, 'POST', `/master/users/${enc(user.id)}/role-mappings/realm`, [admin]);
  return true;
}
