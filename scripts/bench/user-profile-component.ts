// The declarative user profile as Keycloak's realm import takes it, for the bench's direct script: the whole UPConfig
// document (the built-in attributes the spec does not declare as a new realm has them) in the user profile
// provider's component.
import type { IdentityRealm } from '../../generated/types/crds/identityrealm.ts';
import {
  userProfileAttributeItem,
  userProfileGroupItem,
} from '../../src/operator/keycloak/collections/user-profile.ts';
import { userProfileDefaults } from '../../src/operator/keycloak/collections/user-profile-defaults.ts';

/** The `components` entry of a realm representation carrying `profile`. */
export function userProfileComponent(profile: NonNullable<IdentityRealm['spec']['userProfile']>) {
  const defaults = userProfileDefaults(undefined);
  const declared = new Set((profile.attributes ?? []).map((a) => a.name));
  const doc = {
    attributes: [
      ...defaults.attributes.filter((a) => !declared.has(String(a.name))),
      ...(profile.attributes ?? []).map(userProfileAttributeItem),
    ],
    groups: [...defaults.groups, ...(profile.groups ?? []).map(userProfileGroupItem)],
    ...(profile.unmanagedAttributePolicy
      ? { unmanagedAttributePolicy: profile.unmanagedAttributePolicy }
      : {}),
  };
  return {
    'org.keycloak.userprofile.UserProfileProvider': [
      {
        providerId: 'declarative-user-profile',
        subComponents: {},
        config: { 'kc.user.profile.config': [JSON.stringify(doc)] },
      },
    ],
  };
}
