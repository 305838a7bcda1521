// OTP, WebAuthn and WebAuthn Passwordless (passkeys) policies: flat otpPolicy*, webAuthnPolicy* and
// webAuthnPolicyPasswordless* fields in Keycloak, one object each in the spec. Keycloak rebuilds a policy whole
// from an update (OTP only when otpPolicyType is present; a field left out at its default), so a policy the spec
// sets is sent complete, its fields over Keycloak's defaults, and updates that do not set a policy carry its live
// fields (FieldRules.carry).
import { type Fields, prefixed, type RealmSpec } from './section.ts';

const otpDefaults: Fields = {
  otpPolicyType: 'totp',
  otpPolicyAlgorithm: 'HmacSHA1',
  otpPolicyDigits: 6,
  otpPolicyInitialCounter: 0,
  otpPolicyLookAheadWindow: 1,
  otpPolicyPeriod: 30,
  otpPolicyCodeReusable: false,
};

const webAuthnDefaults = (prefix: string, userVerification: string): Fields => ({
  [`${prefix}RpEntityName`]: 'keycloak',
  [`${prefix}SignatureAlgorithms`]: ['ES256', 'RS256'],
  [`${prefix}RpId`]: '',
  [`${prefix}AttestationConveyancePreference`]: 'not specified',
  [`${prefix}AuthenticatorAttachment`]: 'not specified',
  [`${prefix}RequireResidentKey`]: 'not specified',
  [`${prefix}UserVerificationRequirement`]: userVerification,
  [`${prefix}CreateTimeout`]: 0,
  [`${prefix}AvoidSameAuthenticatorRegister`]: false,
  [`${prefix}AcceptableAaguids`]: [],
  [`${prefix}ExtraOrigins`]: [],
});
const twoFactorDefaults = webAuthnDefaults('webAuthnPolicy', 'not specified');
const passwordlessDefaults = webAuthnDefaults('webAuthnPolicyPasswordless', 'required');

export const authenticationPolicyDefaults: Fields = {
  ...otpDefaults,
  ...twoFactorDefaults,
  ...passwordlessDefaults,
};

/** Every policy field: carried by updates that do not set them. */
export const authenticationPolicyFields = Object.keys(authenticationPolicyDefaults);

/** The list-valued policy fields, compared as sets. */
export const authenticationPolicySets = authenticationPolicyFields.filter((k) =>
  Array.isArray(authenticationPolicyDefaults[k]),
);

/** Where Keycloak 25 differs: WebAuthn signs with ES256 only, passwordless asks no user verification. */
export const authenticationPolicyDefaults25: Fields = {
  webAuthnPolicySignatureAlgorithms: ['ES256'],
  webAuthnPolicyPasswordlessSignatureAlgorithms: ['ES256'],
  webAuthnPolicyPasswordlessUserVerificationRequirement: 'not specified',
};

/** A whole policy: the spec's fields over the Keycloak version's defaults, or nothing when the spec sets none. */
function whole(group: Fields, defaults: Fields, fields: Fields): Fields {
  if (!Object.keys(fields).length) return {};
  return { ...Object.fromEntries(Object.keys(group).map((k) => [k, defaults[k]])), ...fields };
}

/** The policies the spec sets; `defaults` is the realm defaults table of the Keycloak version in use. */
export const compileAuthenticationPolicies = (spec: RealmSpec, defaults: Fields): Fields => ({
  ...whole(otpDefaults, defaults, prefixed('otpPolicy', spec.otpPolicy)),
  ...whole(twoFactorDefaults, defaults, prefixed('webAuthnPolicy', spec.webAuthnPolicy)),
  ...whole(
    passwordlessDefaults,
    defaults,
    prefixed('webAuthnPolicyPasswordless', spec.webAuthnPasswordlessPolicy),
  ),
});
