// A realm's declarative user profile (Keycloak's UPConfig, GET/PUT /{realm}/users/profile) as two managed
// collections in the collection mechanism's document mode: its attributes and its attribute groups, each PUT as
// part of the one document. Neither item has anywhere to carry an owner: the realm records the names it manages
// (ledgers in its attributes). Items are compared in a canonical form that ignores order (permission roles,
// scopes) and fills what Keycloak leaves out (no displayName, no annotations, multivalued false).
import type {
  UserProfileAttribute,
  UserProfileConfig,
  UserProfileGroup,
} from '@keycloak/keycloak-admin-client/lib/defs/userProfileMetadata.js';
import type { IdentityRealm } from '../../../../generated/types/crds/identityrealm.ts';
import type { Collection, Item } from './collection.ts';

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

type Spec = NonNullable<IdentityRealm['spec']['userProfile']>;
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

/** The attributes of the profile document `doc` stands for; `wrap` builds the whole document around them. */
export function userProfileAttributes(
  realm: string,
  wrap: (attributes: Item[]) => UserProfileDocument,
): Collection {
  return {
    noun: 'user profile attribute',
    field: 'spec.userProfile.attributes',
    listPath: userProfilePath(realm),
    key: (a) => String(a.name),
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
    },
    canonical: canonicalAttribute,
    write: { mode: 'document', path: userProfilePath(realm), wrap },
  };
}

/** The attribute groups of the profile; `wrap` builds the whole document around them. */
export function userProfileGroups(realm: string, wrap: (groups: Item[]) => UserProfileDocument): Collection {
  return {
    noun: 'user profile group',
    field: 'spec.userProfile.groups',
    listPath: userProfilePath(realm),
    key: (g) => String(g.name),
    compared: { name: '', displayHeader: '', displayDescription: '', annotations: {} },
    write: { mode: 'document', path: userProfilePath(realm), wrap },
  };
}
