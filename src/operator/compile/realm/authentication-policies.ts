// OTP, WebAuthn and WebAuthn Passwordless (passkeys) policies: flat otpPolicy*, webAuthnPolicy* and
// webAuthnPolicyPasswordless* fields in Keycloak, one object each in the spec.
import { type Fields, prefixed, type RealmSpec } from './section.ts';

export const otpPolicyDefaults: Fields = {
  otpPolicyType: 'totp',
  otpPolicyAlgorithm: 'HmacSHA1',
  otpPolicyDigits: 6,
  otpPolicyInitialCounter: 0,
  otpPolicyLookAheadWindow: 1,
  otpPolicyPeriod: 30,
  otpPolicyCodeReusable: false,
};

const webAuthnDefaults = (prefix: string, userVerification: string, residentKey: string): Fields => ({
  [`${prefix}RpEntityName`]: 'keycloak',
  [`${prefix}SignatureAlgorithms`]: ['ES256', 'RS256'],
  [`${prefix}RpId`]: '',
  [`${prefix}AttestationConveyancePreference`]: 'not specified',
  [`${prefix}AuthenticatorAttachment`]: 'not specified',
  [`${prefix}RequireResidentKey`]: residentKey,
  [`${prefix}UserVerificationRequirement`]: userVerification,
  [`${prefix}CreateTimeout`]: 0,
  [`${prefix}AvoidSameAuthenticatorRegister`]: false,
  [`${prefix}AcceptableAaguids`]: [],
  [`${prefix}ExtraOrigins`]: [],
});

export const webAuthnPolicyDefaults: Fields = {
  ...webAuthnDefaults('webAuthnPolicy', 'not specified', 'not specified'),
  ...webAuthnDefaults('webAuthnPolicyPasswordless', 'required', 'Yes'),
};

/** The list-valued policy fields, compared as sets. */
export const authenticationPolicySets = Object.keys(webAuthnPolicyDefaults).filter((k) =>
  Array.isArray(webAuthnPolicyDefaults[k]),
);

export const compileAuthenticationPolicies = (spec: RealmSpec): Fields => ({
  ...prefixed('otpPolicy', spec.otpPolicy),
  ...prefixed('webAuthnPolicy', spec.webAuthnPolicy),
  ...prefixed('webAuthnPolicyPasswordless', spec.webAuthnPasswordlessPolicy),
});
