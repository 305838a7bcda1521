// A realm is read, and so managed, only through the operator's identity inside it. When that identity does not
// work (its client deleted, its secret changed, its roles taken: Keycloak then answers a name-only realm), the
// master identity looks at the realm: a realm of this resource's (or one it asked to adopt) gets its identity
// restored and the restoration is reported; a realm of someone else's is left alone (RealmNameConflict); a realm
// the master identity may not read at all is someone else's (RealmNameConflict) or, when adoption is asked, names
// the grant a person must give (RealmGrantMissing); nothing is written to either. A realm made by an earlier version, which carries no identity yet, is migrated the same way.
import type RealmRepresentation from '@keycloak/keycloak-admin-client/lib/defs/realmRepresentation.js';
import type { IdentityRealm } from '../../../../generated/types/crds/identityrealm.ts';
import { RealmforgeError } from '../../../core/errors.ts';
import { realmNameOf } from '../../compile/realm-representation.ts';
import type { AdminClient } from '../../keycloak/admin-client.ts';
import type { ServerAdmin } from '../../keycloak/admins.ts';
import { readRealm } from '../../keycloak/collections/realm.ts';
import { operatorClientId } from '../../keycloak/operator-client.ts';
import {
  ensureRealmIdentity,
  grantMasterInRealm,
  grantMessage,
  RealmIdentityRefusedError,
} from '../../keycloak/realm-identity.ts';
import { StuckError } from '../shared/stuck-error.ts';
import { realmOwnership } from './realm-ownership.ts';

/** The live realm (undefined: absent), what was restored of the operator's identity in it, and who read it
 * (the master identity when the realm's own was not restored: observe-only). */
export type RealmRead = { live?: RealmRepresentation; restored: string[]; readBy?: AdminClient };

const forbidden = (error: unknown) => error instanceof RealmforgeError && error.kind === 'auth';

/** Reads the realm with its identity, restoring that identity with the master identity when it does not work
 * (`restore` false, for observe-only: nothing is written, the master identity reads instead). */
export async function readWithIdentity(
  admin: ServerAdmin,
  realm: IdentityRealm,
  { restore = true } = {},
): Promise<RealmRead> {
  const ns = realm.metadata.namespace ?? 'default';
  const name = realmNameOf(realm);
  try {
    const live = await readRealm(admin, ns, name);
    if (!live || live.id) return { live, restored: [] };
  } catch (error) {
    if (!(error instanceof RealmIdentityRefusedError)) throw error;
  }
  const masterUser = `service-account-${admin.masterClientId ?? operatorClientId}`;
  // A realm none of the operator's identities may read was not made by it: adopting it needs a person's grant.
  const grantMissing = () =>
    realm.spec.adoptExisting
      ? new StuckError('auth', 'Pending', 'RealmGrantMissing', grantMessage(name, masterUser))
      : new StuckError(
          'conflict',
          'Failed',
          'RealmNameConflict',
          `realm ${name} already exists in Keycloak and was not created by realmforge (none of the operator's identities holds a grant in it); it is not adopted: to take it over set spec.adoptExisting: true (the status then names the grant Keycloak needs), otherwise choose another spec.realmName`,
        );
  const seen = await readRealm(admin.master, ns, name).catch((error: unknown) => {
    throw forbidden(error) ? grantMissing() : error;
  });
  if (!seen) return { live: undefined, restored: [] };
  // A name-only answer: the master identity may list the realm but not manage it.
  if (!seen.id) throw grantMissing();
  if (realmOwnership(realm, seen).state === 'conflict') return { live: seen, restored: [] };
  if (!restore) return { live: seen, restored: [], readBy: admin.master };
  // Migration: a master identity that still holds master's admin keeps the creator's grant for later repairs.
  const migrated = admin.masterClientId
    ? await grantMasterInRealm(admin.master, ns, name, admin.masterClientId).catch((error: unknown) => {
        if (forbidden(error)) return [];
        throw error;
      })
    : [];
  const restored = await ensureRealmIdentity(admin.master, ns, name, admin.realmSecret(name));
  return { live: seen, restored: [...restored, ...migrated] };
}
