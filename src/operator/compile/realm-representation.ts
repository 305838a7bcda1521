// The realm fields an IdentityRealm manages, as one Keycloak RealmRepresentation: what is created in one call and
// what drift detection compares. Each spec section compiles in its own file under realm/ (with Keycloak's default
// of every field it sets, see realmFieldDefaults); fields the spec leaves out are absent, so Keycloak's own
// values are kept until the managed-field rule resets one the spec stopped setting.
import type RealmRepresentation from '@keycloak/keycloak-admin-client/lib/defs/realmRepresentation.js';
import type { IdentityRealm } from '../../../generated/types/crds/identityrealm.ts';
import {
  authenticationPolicyDefaults,
  authenticationPolicyFields,
  authenticationPolicySets,
  compileAuthenticationPolicies,
} from './realm/authentication-policies.ts';
import { scopeLinkAttributes } from './realm/client-scopes.ts';
import {
  compileGeneral,
  compileLogin,
  compileTokens,
  generalDefaults,
  loginDefaults,
  tokenDefaults,
} from './realm/general.ts';
import {
  compileEvents,
  compileLocalization,
  eventsDefaults,
  localizationDefaults,
  localizationEventsSets,
} from './realm/localization-events.ts';
import { compilePasswordPolicy, passwordPolicyDefaults } from './realm/password-policy.ts';
import type { Fields } from './realm/section.ts';
import { compileSecurityDefenses, securityDefensesDefaults } from './realm/security-defenses.ts';
import { compileSmtp } from './realm/smtp.ts';

/** What a realm compile needs from the world: the SMTP password read from its Secret, when SMTP is set. */
export type RealmInputs = { readonly smtpPassword?: string };

/** The realm's name in Keycloak: spec.realmName, else metadata.name. */
export function realmNameOf(realm: IdentityRealm): string {
  return realm.spec.realmName ?? realm.metadata.name;
}

/** Keycloak's default of every realm field a section can set (what a new realm has). */
export const realmFieldDefaults: Fields = {
  realm: undefined,
  ...generalDefaults,
  ...loginDefaults,
  ...tokenDefaults,
  ...securityDefensesDefaults,
  ...passwordPolicyDefaults,
  ...authenticationPolicyDefaults,
  ...localizationDefaults,
  ...eventsDefaults,
};

/** Realm fields Keycloak resets when an update leaves them out: every update carries their live value. */
export const realmCarriedFields = [
  ...authenticationPolicyFields,
  'oauth2DeviceCodeLifespan',
  'oauth2DevicePollingInterval',
];

/** Realm fields that are lists compared as sets. */
export const realmSetFields = [...authenticationPolicySets, ...localizationEventsSets];

/** Free-form attributes and the operator's scope-link ledgers (realm attributes too). */
function attributes(spec: IdentityRealm['spec']): Fields {
  const all = { ...spec.attributes, ...scopeLinkAttributes(spec) };
  return Object.keys(all).length ? { attributes: all } : {};
}

export function compileRealm(realm: IdentityRealm, inputs: RealmInputs = {}): RealmRepresentation {
  const { spec } = realm;
  return {
    realm: realmNameOf(realm),
    ...compileGeneral(spec),
    ...compileLogin(spec),
    ...compileTokens(spec),
    ...compileSecurityDefenses(spec),
    ...compilePasswordPolicy(spec),
    ...compileAuthenticationPolicies(spec),
    ...compileLocalization(spec),
    ...compileEvents(spec),
    ...attributes(spec),
    ...compileSmtp(spec, inputs.smtpPassword),
  };
}
