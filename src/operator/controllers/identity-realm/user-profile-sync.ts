// A realm's declarative user profile (spec.userProfile), after its client scopes (a required or selector scope
// may be one the spec creates). One document in Keycloak: its groups, attributes and unmanaged-attribute policy are
// synced by the collection mechanism's document mode, groups first (a new attribute may name a new group), then
// attributes, then the groups the spec dropped (no declared attribute names them any more). A built-in attribute
// or group the spec stops declaring goes back to what a new realm of that Keycloak line has; a custom one is
// deleted; hand-made ones are kept as read. One read when the spec declares a profile or the realm's ledgers record
// one, none otherwise; a write only for a difference.
import type { IdentityRealm } from '../../../../generated/types/crds/identityrealm.ts';
import { RealmforgeError } from '../../../core/errors.ts';
import type { AdminClient } from '../../keycloak/admin-client.ts';
import { type Item, type Ledger, ledger, syncCollection } from '../../keycloak/collections/collection.ts';
import {
  type UserProfileDocument,
  userProfileAttributeItem,
  userProfileAttributes,
  userProfileGroupItem,
  userProfileGroups,
  userProfileLedgers,
  userProfilePath,
} from '../../keycloak/collections/user-profile.ts';
import { userProfileDefaults } from '../../keycloak/collections/user-profile-defaults.ts';
import { SpecRefusedError } from '../../keycloak/spec-refused.ts';

type Spec = IdentityRealm['spec'];

/** The realm attributes recording what the operator manages (empty ones left out: Keycloak drops them). */
export function userProfileLedgerAttributes(spec: Spec): Record<string, string> {
  const profile = spec.userProfile;
  if (!profile) return {};
  const names = (items: { name: string }[] | undefined) =>
    (items ?? [])
      .map((i) => i.name)
      .sort()
      .join(',');
  const attributes = names(profile.attributes);
  const groups = names(profile.groups);
  return {
    ...(attributes ? { [userProfileLedgers.attributes]: attributes } : {}),
    ...(groups ? { [userProfileLedgers.groups]: groups } : {}),
    [userProfileLedgers.policy]: profile.unmanagedAttributePolicy ?? 'DISABLED',
  };
}

/** The spec field a Keycloak refusal is about, when its message names an attribute or group. */
function fieldOf(message: string): string {
  const attribute = /attribute '([^']+)'/i.exec(message)?.[1];
  return attribute ? `spec.userProfile.attributes[${attribute}]` : 'spec.userProfile';
}

/** Syncs the realm's user profile; `liveAttributes`: the realm's attributes before this update. */
export async function syncUserProfile(
  admin: AdminClient,
  ns: string,
  realm: string,
  spec: Spec,
  liveAttributes: Record<string, unknown> | undefined,
  keycloakVersion: string | undefined,
): Promise<string[]> {
  const owned = {
    attributes: ledger(liveAttributes, userProfileLedgers.attributes),
    groups: ledger(liveAttributes, userProfileLedgers.groups),
  };
  const policyManaged = Boolean(liveAttributes?.[userProfileLedgers.policy]);
  if (!spec.userProfile && !owned.attributes.managed.size && !owned.groups.managed.size && !policyManaged)
    return [];
  const doc = (await admin.call<UserProfileDocument>(ns, 'GET', userProfilePath(realm))).body ?? {};
  try {
    return await writeUserProfile(admin, ns, realm, spec, { doc, owned, policyManaged, keycloakVersion });
  } catch (error) {
    // Keycloak judges validator names and configurations, scopes and group references: its 400 names the field.
    if (
      error instanceof RealmforgeError &&
      error.kind === 'validation' &&
      !(error instanceof SpecRefusedError)
    )
      throw new SpecRefusedError('user profile', [fieldOf(error.message)], error);
    throw error;
  }
}

type Live = {
  doc: UserProfileDocument;
  owned: { attributes: Ledger; groups: Ledger };
  policyManaged: boolean;
  keycloakVersion: string | undefined;
};

async function writeUserProfile(
  admin: AdminClient,
  ns: string,
  realm: string,
  spec: Spec,
  live: Live,
): Promise<string[]> {
  const { owned, policyManaged } = live;
  const defaults = userProfileDefaults(live.keycloakVersion);
  // The policy: the spec's (absent: disabled) while it declares a profile; disabled again once it stops, when the
  // operator managed it; otherwise whatever Keycloak has.
  const policy = spec.userProfile
    ? spec.userProfile.unmanagedAttributePolicy
    : policyManaged
      ? undefined
      : live.doc.unmanagedAttributePolicy;
  // The document as last written: each PUT sends it whole, with the one list changed.
  let current: UserProfileDocument = live.doc;
  const withPolicy = (d: UserProfileDocument): UserProfileDocument => {
    const { unmanagedAttributePolicy: _, ...rest } = d;
    return policy ? { ...rest, unmanagedAttributePolicy: policy } : rest;
  };
  const attributesC = userProfileAttributes(realm, (attributes) => {
    current = withPolicy({ ...current, attributes });
    return current;
  });
  const groupsC = userProfileGroups(realm, (groups) => {
    current = withPolicy({ ...current, groups });
    return current;
  });
  // Declared items, plus the built-in ones the spec dropped, reset to their defaults.
  const wanted = (declared: Item[], builtIn: Item[], ledgerOf: Ledger, key: (i: Item) => string) => {
    const names = new Set(declared.map(key));
    return [...declared, ...builtIn.filter((d) => ledgerOf.managed.has(key(d)) && !names.has(key(d)))];
  };
  const attributes = wanted(
    (spec.userProfile?.attributes ?? []).map(userProfileAttributeItem),
    defaults.attributes,
    owned.attributes,
    attributesC.key,
  );
  const groups = wanted(
    (spec.userProfile?.groups ?? []).map(userProfileGroupItem),
    defaults.groups,
    owned.groups,
    groupsC.key,
  );
  const writes: string[] = [];
  const liveGroups = (live.doc.groups ?? []) as Item[];
  const names = new Set(groups.map(groupsC.key));
  const leftovers = liveGroups.filter(
    (g) => owned.groups.managed.has(groupsC.key(g)) && !names.has(groupsC.key(g)),
  );
  // A leftover group is kept while attributes still change: one of them may name it until it is gone.
  writes.push(
    ...(
      await syncCollection(admin, ns, groupsC, [...groups, ...leftovers], owned.groups, { live: liveGroups })
    ).writes,
  );
  writes.push(
    ...(
      await syncCollection(admin, ns, attributesC, attributes, owned.attributes, {
        live: (current.attributes ?? []) as Item[],
      })
    ).writes,
  );
  if (leftovers.length)
    writes.push(
      ...(
        await syncCollection(admin, ns, groupsC, groups, owned.groups, {
          live: (current.groups ?? []) as Item[],
        })
      ).writes,
    );
  if ((current.unmanagedAttributePolicy ?? undefined) !== policy) {
    current = withPolicy(current);
    await admin.call(ns, 'PUT', userProfilePath(realm), current);
    writes.push(`update user profile unmanagedAttributePolicy (${policy ?? 'disabled'})`);
  }
  return writes;
}
