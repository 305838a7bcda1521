// A new realm's user profile as its create call carries it (realm-create.ts): Keycloak's profile component holding
// the document the sync would make (the line's default document with the declared attributes, groups and policy
// over it). Keycloak's import answers a profile it refuses with a bare HTTP 500 (seen on 25.0 and 26.7.3: the
// component's check fails the whole create, and no realm is kept), so the create call carries a profile only when it
// names nothing beyond what every Keycloak 25 and 26 realm has; any other profile goes through its step after the
// create, where Keycloak's 400 names the field.
import type { IdentityRealm } from '../../../../generated/types/crds/identityrealm.ts';
import type { Item } from './collection.ts';
import { userProfileAttributeItem, userProfileGroupItem } from './user-profile.ts';
import { userProfileDefaults } from './user-profile-defaults.ts';

type RealmSpec = IdentityRealm['spec'];
type Spec = NonNullable<RealmSpec['userProfile']>;

/** The validators and client scopes every Keycloak 25 and 26 realm has. */
const builtInValidators = new Set([
  'double',
  'email',
  'integer',
  'length',
  'local-date',
  'options',
  'pattern',
  'person-name-prohibited-characters',
  'up-username-not-idn-homograph',
  'uri',
  'username-prohibited-characters',
]);
const builtInScopes = new Set([
  'acr',
  'address',
  'basic',
  'email',
  'microprofile-jwt',
  'offline_access',
  'phone',
  'profile',
  'role_list',
  'roles',
  'web-origins',
]);

/** The realm representation's `components` holding `profile`: Keycloak's default document of the line with the
 * declared attributes, groups and policy over it, as the sync makes it. */
export function userProfileComponents(profile: Spec, keycloakVersion: string | undefined): Item {
  const defaults = userProfileDefaults(keycloakVersion);
  const over = (builtIn: Item[], declared: Item[]) => [
    ...builtIn.map((d) => declared.find((i) => i.name === d.name) ?? d),
    ...declared.filter((i) => !builtIn.some((d) => d.name === i.name)),
  ];
  const doc = {
    attributes: over(defaults.attributes, (profile.attributes ?? []).map(userProfileAttributeItem)),
    groups: over(defaults.groups, (profile.groups ?? []).map(userProfileGroupItem)),
    ...(profile.unmanagedAttributePolicy
      ? { unmanagedAttributePolicy: profile.unmanagedAttributePolicy }
      : {}),
  };
  const component = {
    providerId: 'declarative-user-profile',
    subComponents: {},
    config: { 'kc.user.profile.config': [JSON.stringify(doc)] },
  };
  return { 'org.keycloak.userprofile.UserProfileProvider': [component] };
}

/** The profile components a new realm's create call carries: none when the spec declares no profile, or one that
 * names a validator, client scope or group beyond Keycloak's own and its declared groups. */
export function carriedUserProfile(spec: RealmSpec, keycloakVersion: string | undefined): Item | undefined {
  const profile = spec.userProfile;
  if (!profile) return undefined;
  const groups = new Set([
    ...userProfileDefaults(keycloakVersion).groups.map((g) => String(g.name)),
    ...(profile.groups ?? []).map((g) => g.name),
  ]);
  const declaredScopes = new Set((spec.clientScopes ?? []).map((c) => c.name));
  const plain = (profile.attributes ?? []).every(
    (a) =>
      Object.keys(a.validations ?? {}).every((v) => builtInValidators.has(v)) &&
      [...(a.required?.scopes ?? []), ...(a.selector?.scopes ?? [])].every(
        (scope) => builtInScopes.has(scope) && !declaredScopes.has(scope),
      ) &&
      (!a.group || groups.has(a.group)),
  );
  return plain ? userProfileComponents(profile, keycloakVersion) : undefined;
}
