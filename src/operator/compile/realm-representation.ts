// The realm fields an IdentityRealm manages, as one Keycloak RealmRepresentation: what is created in one call and
// what drift detection compares. Each spec section compiles in its own file under realm/ (with Keycloak's default
// of every field it sets, see realmFieldDefaults); fields the spec leaves out are absent, so Keycloak's own
// values are kept until the managed-field rule resets one the spec stopped setting.
import type RealmRepresentation from '@keycloak/keycloak-admin-client/lib/defs/realmRepresentation.js';
import type { IdentityRealm } from '../../../generated/types/crds/identityrealm.ts';
import {
  authenticationPolicyDefaults,
  authenticationPolicyDefaults25,
  authenticationPolicyFields,
  authenticationPolicySets,
  compileAuthenticationPolicies,
} from './realm/authentication-policies.ts';
import { scopeLinkAttributes } from './realm/client-scopes.ts';
import { compileFlowBindings, flowBindingDefaults } from './realm/flow-bindings.ts';
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
import {
  compileSecurityDefenses,
  securityDefensesDefaults,
  securityDefensesDefaults25,
} from './realm/security-defenses.ts';
import { compileSmtp } from './realm/smtp.ts';

/** What a realm compile needs from the world: the SMTP password read from its Secret, when SMTP is set, and the
 * Keycloak version (its server's status.version; some defaults differ between 25 and 26; unknown: 26's). */
export type RealmInputs = { readonly smtpPassword?: string; readonly keycloakVersion?: string };

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
  ...flowBindingDefaults,
  organizationsEnabled: false,
};

/** The defaults table of a Keycloak version (25 differs in WebAuthn algorithms and one header). */
export function realmFieldDefaultsFor(keycloakVersion: string | undefined): Fields {
  const major = Number.parseInt(keycloakVersion ?? '', 10);
  if (!(major < 26)) return realmFieldDefaults;
  return { ...realmFieldDefaults, ...authenticationPolicyDefaults25, ...securityDefensesDefaults25 };
}

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
  const defaults = realmFieldDefaultsFor(inputs.keycloakVersion);
  return {
    realm: realmNameOf(realm),
    ...compileGeneral(spec),
    ...compileLogin(spec),
    ...compileTokens(spec),
    ...compileSecurityDefenses(spec, defaults),
    ...compilePasswordPolicy(spec),
    ...compileAuthenticationPolicies(spec, defaults),
    ...compileLocalization(spec),
    ...compileEvents(spec),
    ...compileFlowBindings(spec),
    // Declaring organizations turns the feature on (Keycloak 26; the sync refuses the section on 25).
    ...(spec.organizations?.length ? { organizationsEnabled: true } : {}),
    ...attributes(spec),
    ...compileSmtp(spec, inputs.smtpPassword),
  };
}
