// A realm's declarative user profile (Keycloak's UPConfig, GET/PUT /{realm}/users/profile) as one managed
// collection in the collection mechanism's document mode: its attributes, its attribute groups and its
// unmanaged-attribute policy are the entries of the one document. No entry has anywhere to carry an owner: the
// realm records the names it manages (ledgers in its attributes). Items are compared in a canonical form that
// ignores order (permission roles, scopes) and fills what Keycloak leaves out (no displayName, no annotations,
// multivalued false). Synced after the client scopes (a required or selector scope may be one the spec creates): a
// change is one PUT that Keycloak accepts or refuses whole. A built-in attribute or group the spec stops declaring
// goes back to what a new realm of that Keycloak line has; a custom one is deleted; hand-made ones are kept as
// read. One read when the spec declares a profile or the realm's ledgers record one, none otherwise.
import type {
  UserProfileAttribute,
  UserProfileConfig,
  UserProfileGroup,
} from '@keycloak/keycloak-admin-client/lib/defs/userProfileMetadata.js';
import type { IdentityRealm } from '../../../../generated/types/crds/identityrealm.ts';
import { RealmforgeError } from '../../../core/errors.ts';
import type { AdminClient } from '../admin-client.ts';
import { SpecRefusedError } from '../spec-refused.ts';
import { type Collection, type Item, type Ledger, ledger, sameItem, syncCollection } from './collection.ts';
import { ledgerClaim } from './late-ledgers.ts';
import { userProfileDefaults } from './user-profile-defaults.ts';

const enc = encodeURIComponent;

/** The realm attributes listing what the operator manages: attribute names, group names, and whether it manages
 * the unmanaged-attribute policy (its value: the policy the spec sets, or DISABLED). */
export const userProfileLedgers = {
  attributes: 'realmforge.dev/user-profile-attributes',
  groups: 'realmforge.dev/user-profile-groups',
  policy: 'realmforge.dev/user-profile-policy',
} as const;

/** The profile document (UPConfig); the policy as the string Keycloak sends (the client's type is an enum). */
export type UserProfileDocument = Omit<UserProfileConfig, 'unmanagedAttributePolicy'> & {
  unmanagedAttributePolicy?: string;
};

type RealmSpec = IdentityRealm['spec'];
type Spec = NonNullable<RealmSpec['userProfile']>;
type SpecAttribute = NonNullable<Spec['attributes']>[number];
type SpecGroup = NonNullable<Spec['groups']>[number];

/** Where a realm's user profile lives. */
export const userProfilePath = (realm: string) => `/${enc(realm)}/users/profile`;

const sorted = (values: readonly string[] | undefined) => [...(values ?? [])].sort();
const object = (value: unknown) => (value && typeof value === 'object' ? (value as Item) : {});

/** A declared attribute as Keycloak represents it. */
export function userProfileAttributeItem(a: SpecAttribute): Item {
  const attribute: UserProfileAttribute = {
    name: a.name,
    ...(a.displayName !== undefined ? { displayName: a.displayName } : {}),
    validations: object(a.validations),
    annotations: object(a.annotations),
    permissions: { view: sorted(a.permissions?.view), edit: sorted(a.permissions?.edit) },
    ...(a.required
      ? { required: { roles: sorted(a.required.roles), scopes: sorted(a.required.scopes) } }
      : {}),
    ...(a.selector?.scopes?.length ? { selector: { scopes: sorted(a.selector.scopes) } } : {}),
    ...(a.group ? { group: a.group } : {}),
    multivalued: a.multivalued ?? false,
  };
  return attribute as Item;
}

/** A declared attribute group as Keycloak represents it. */
export function userProfileGroupItem(g: SpecGroup): Item {
  const group: UserProfileGroup = {
    name: g.name,
    ...(g.displayHeader !== undefined ? { displayHeader: g.displayHeader } : {}),
    ...(g.displayDescription !== undefined ? { displayDescription: g.displayDescription } : {}),
    annotations: object(g.annotations),
  };
  return group as Item;
}

/** An attribute in the form compared: sets sorted, Keycloak's omissions filled in. */
function canonicalAttribute(raw: Item): Item {
  const a = raw as UserProfileAttribute;
  const required = a.required as { roles?: string[]; scopes?: string[] } | undefined;
  return {
    name: a.name,
    displayName: a.displayName ?? '',
    validations: a.validations ?? {},
    annotations: a.annotations ?? {},
    permissions: { view: sorted(a.permissions?.view), edit: sorted(a.permissions?.edit) },
    required: required ? { roles: sorted(required.roles), scopes: sorted(required.scopes) } : null,
    selector: a.selector?.scopes?.length ? { scopes: sorted(a.selector.scopes) } : null,
    group: a.group || null,
    multivalued: a.multivalued ?? false,
  };
}

/** An entry of the profile document: an attribute, a group, or the unmanaged-attribute policy (`value`). */
export type EntryKind = 'attribute' | 'group' | 'policy';
const policyKey = 'unmanagedAttributePolicy';

/** Tags an attribute, a group or the policy as an entry of the one collection. */
export const entry = (kind: EntryKind, item: Item): Item => ({ ...item, entry: kind });
const untagged = (item: Item): Item => {
  const { entry: _, ...rest } = item;
  return rest;
};

/** The natural key of an entry: `attribute phone`, `group work`, `unmanagedAttributePolicy`. */
export const entryKey = (item: Item) =>
  item.entry === 'policy' ? policyKey : `${String(item.entry)} ${String(item.name)}`;

/** The document's entries, in the document's order. */
export function documentEntries(doc: UserProfileDocument): Item[] {
  return [
    ...((doc.attributes ?? []) as Item[]).map((a) => entry('attribute', a)),
    ...((doc.groups ?? []) as Item[]).map((g) => entry('group', g)),
    ...(doc.unmanagedAttributePolicy ? [entry('policy', { value: doc.unmanagedAttributePolicy })] : []),
  ];
}

/** The document holding `entries`, over the rest of `base` (what Keycloak may add later). */
export function documentOf(base: UserProfileDocument, entries: Item[]): UserProfileDocument {
  const { unmanagedAttributePolicy: _, ...rest } = base;
  const policy = entries.find((e) => e.entry === 'policy')?.value as string | undefined;
  return {
    ...rest,
    attributes: entries.filter((e) => e.entry === 'attribute').map(untagged),
    groups: entries.filter((e) => e.entry === 'group').map(untagged),
    ...(policy ? { unmanagedAttributePolicy: policy } : {}),
  };
}

const canonicalEntry = (item: Item): Item =>
  item.entry === 'attribute'
    ? canonicalAttribute(item)
    : item.entry === 'group'
      ? {
          name: item.name,
          displayHeader: item.displayHeader ?? '',
          displayDescription: item.displayDescription ?? '',
          annotations: item.annotations ?? {},
        }
      : { value: item.value };

/**
 * The whole profile as one collection of entries (attributes, groups, the policy) in document mode: every change
 * is one PUT of the whole document, so Keycloak judges it all at once (an attribute and the group it names, a
 * dropped group and the attribute that named it) and a refusal changes nothing. `base`: the document as read.
 */
export function userProfileEntries(realm: string, base: UserProfileDocument): Collection {
  return {
    noun: 'user profile',
    field: 'spec.userProfile',
    listPath: userProfilePath(realm),
    key: entryKey,
    compared: {
      name: '',
      displayName: '',
      validations: {},
      annotations: {},
      permissions: { view: [], edit: [] },
      required: null,
      selector: null,
      group: null,
      multivalued: false,
      displayHeader: '',
      displayDescription: '',
      value: null,
    },
    canonical: canonicalEntry,
    write: {
      mode: 'document',
      path: userProfilePath(realm),
      wrap: (entries, fresh) => documentOf((fresh ?? base) as UserProfileDocument, entries),
      unwrap: (doc) => (doc ? documentEntries(doc as UserProfileDocument) : undefined),
    },
  };
}

/** Whether a live attribute or group equals the desired one, as the sync compares them. */
export const sameEntry = (kind: EntryKind, desired: Item, live: Item) =>
  sameItem(userProfileEntries('', {}), entry(kind, desired), entry(kind, live));

/** The realm attributes recording what the operator manages (empty ones left out: Keycloak drops them). */
export function userProfileLedgerAttributes(spec: RealmSpec): Record<string, string> {
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
  spec: RealmSpec,
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
  spec: RealmSpec,
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
  const realmPath = `/${enc(realm)}`;
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
