// A realm's declarative user profile (spec.userProfile), after its client scopes (a required or selector scope
// may be one the spec creates). One document in Keycloak: its attributes, groups and unmanaged-attribute policy are
// the entries of one collection in the collection mechanism's document mode, so a change is one PUT that Keycloak
// accepts or refuses whole (an attribute with the group it names; a refusal changes nothing). A built-in attribute
// or group the spec stops declaring goes back to what a new realm of that Keycloak line has; a custom one is
// deleted; hand-made ones are kept as read. One read when the spec declares a profile or the realm's ledgers record
// one, none otherwise; a write only for a difference.
import type { IdentityRealm } from '../../../../generated/types/crds/identityrealm.ts';
import { RealmforgeError } from '../../../core/errors.ts';
import type { AdminClient } from '../../keycloak/admin-client.ts';
import { type Item, type Ledger, ledger, syncCollection } from '../../keycloak/collections/collection.ts';
import { ledgerClaim } from '../../keycloak/collections/late-ledgers.ts';
import {
  documentEntries,
  type EntryKind,
  entry,
  entryKey,
  type UserProfileDocument,
  userProfileAttributeItem,
  userProfileEntries,
  userProfileGroupItem,
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
  // Declared items, plus the built-in ones the spec dropped, reset to their defaults.
  const wanted = (kind: EntryKind, declared: Item[], builtIn: Item[], ledgerOf: Ledger) => {
    const names = new Set(declared.map((i) => String(i.name)));
    return [
      ...declared,
      ...builtIn.filter((d) => ledgerOf.managed.has(String(d.name)) && !names.has(String(d.name))),
    ].map((i) => entry(kind, i));
  };
  const profile = spec.userProfile;
  const policy = profile?.unmanagedAttributePolicy;
  const desired = [
    ...wanted(
      'attribute',
      (profile?.attributes ?? []).map(userProfileAttributeItem),
      defaults.attributes,
      owned.attributes,
    ),
    ...wanted('group', (profile?.groups ?? []).map(userProfileGroupItem), defaults.groups, owned.groups),
    ...(policy ? [entry('policy', { value: policy })] : []),
  ];
  // Ours: the attributes and groups recorded, and the policy while the spec declares a profile or did before
  // (absent from the spec then means Keycloak's default, disabled).
  const ours: Ledger = {
    by: 'ledger',
    managed: new Set([
      ...[...owned.attributes.managed].map((n) => entryKey(entry('attribute', { name: n }))),
      ...[...owned.groups.managed].map((n) => entryKey(entry('group', { name: n }))),
      ...(profile || policyManaged ? [entryKey(entry('policy', {}))] : []),
    ]),
  };
  const c = userProfileEntries(realm, live.doc);
  // Keycloak's own attributes and groups (username, email, ...) are not a person's: declaring them configures them.
  const keycloak = new Set([
    ...defaults.attributes.map((a) => entryKey(entry('attribute', a))),
    ...defaults.groups.map((g) => entryKey(entry('group', g))),
  ]);
  const realmPath = `/${encodeURIComponent(realm)}`;
  const claim = async (keys: string[]) => {
    for (const kind of ['attribute', 'group'] as const) {
      const names = keys.filter((k) => k.startsWith(`${kind} `)).map((k) => k.slice(kind.length + 1));
      const attribute = kind === 'attribute' ? userProfileLedgers.attributes : userProfileLedgers.groups;
      if (names.length) await ledgerClaim(admin, ns, realmPath, attribute)(names);
    }
  };
  const options = { live: documentEntries(live.doc), adopt: spec.adoptExisting, claim };
  return (await syncCollection(admin, ns, c, desired, { ...ours, keycloak }, options)).writes;
}
