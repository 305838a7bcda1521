// A realm spec setting every realm field a section can set, each to a value other than Keycloak's default: the
// unit tests check the defaults table covers it, the e2e applies it to the real Keycloak and takes it back.
import type { IdentityRealm } from '../../../generated/types/crds/identityrealm.ts';

export const everyRealmField: Omit<IdentityRealm['spec'], 'serverRef'> = {
  displayName: 'Everything',
  enabled: false,
  themes: { login: 'base', account: 'base', admin: 'base', email: 'base' },
  login: {
    registrationAllowed: true,
    // With duplicate emails allowed, email as username must stay off (Keycloak ignores it; the CRD refuses it).
    registrationEmailAsUsername: false,
    editUsernameAllowed: true,
    resetPasswordAllowed: true,
    rememberMe: true,
    verifyEmail: true,
    loginWithEmailAllowed: false,
    duplicateEmailsAllowed: true,
    sslRequired: 'none',
  },
  tokens: {
    accessTokenLifespan: 301,
    accessTokenLifespanForImplicitFlow: 901,
    accessCodeLifespan: 61,
    accessCodeLifespanUserAction: 301,
    accessCodeLifespanLogin: 1801,
    ssoSessionIdleTimeout: 1801,
    ssoSessionMaxLifespan: 36001,
    ssoSessionIdleTimeoutRememberMe: 3600,
    ssoSessionMaxLifespanRememberMe: 7200,
    offlineSessionIdleTimeout: 2592001,
    offlineSessionMaxLifespan: 5184001,
    clientSessionIdleTimeout: 600,
    clientSessionMaxLifespan: 1200,
    clientOfflineSessionIdleTimeout: 600,
    clientOfflineSessionMaxLifespan: 1200,
    actionTokenGeneratedByAdminLifespan: 43201,
    actionTokenGeneratedByUserLifespan: 301,
    oauth2DeviceCodeLifespan: 601,
    oauth2DevicePollingInterval: 6,
    revokeRefreshToken: true,
    refreshTokenMaxReuse: 1,
  },
  securityDefenses: {
    headers: { xFrameOptions: 'DENY', referrerPolicy: 'same-origin' },
    bruteForceDetection: {
      permanentLockout: true,
      maxTemporaryLockouts: 2,
      failureFactor: 3,
      waitIncrementSeconds: 61,
      maxFailureWaitSeconds: 901,
      minimumQuickLoginWaitSeconds: 61,
      quickLoginCheckMilliSeconds: 1001,
      maxDeltaTimeSeconds: 43201,
    },
  },
  passwordPolicy: {
    length: 12,
    maxLength: 64,
    digits: 1,
    upperCase: 1,
    lowerCase: 1,
    specialChars: 1,
    notUsername: true,
    notEmail: true,
    passwordHistory: 3,
    forceExpiredPasswordChange: 90,
    regexPattern: '^[^ ]+$',
    hashAlgorithm: 'pbkdf2-sha512',
    hashIterations: 210000,
  },
  otpPolicy: {
    type: 'hotp',
    algorithm: 'HmacSHA256',
    digits: 8,
    initialCounter: 2,
    lookAheadWindow: 2,
    period: 60,
    codeReusable: true,
  },
  webAuthnPolicy: {
    rpEntityName: 'everything',
    signatureAlgorithms: ['ES256'],
    rpId: 'id.example.test',
    attestationConveyancePreference: 'direct',
    authenticatorAttachment: 'cross-platform',
    requireResidentKey: 'No',
    userVerificationRequirement: 'preferred',
    createTimeout: 30,
    avoidSameAuthenticatorRegister: true,
    acceptableAaguids: ['cb69481e-8ff7-4039-93ec-0a2729a154a8'],
    extraOrigins: ['https://app.example.test'],
  },
  webAuthnPasswordlessPolicy: {
    rpEntityName: 'everything-passkeys',
    signatureAlgorithms: ['ES256', 'RS256', 'ES384'],
    rpId: 'id.example.test',
    attestationConveyancePreference: 'indirect',
    authenticatorAttachment: 'platform',
    requireResidentKey: 'No',
    userVerificationRequirement: 'preferred',
    createTimeout: 60,
    avoidSameAuthenticatorRegister: true,
    acceptableAaguids: ['cb69481e-8ff7-4039-93ec-0a2729a154a8'],
    extraOrigins: ['https://app.example.test'],
  },
  localization: { supportedLocales: ['en', 'de', 'fr'], defaultLocale: 'de' },
  events: {
    eventsEnabled: true,
    eventsExpiration: 86400,
    enabledEventTypes: ['LOGIN', 'LOGIN_ERROR'],
    eventsListeners: ['jboss-logging', 'email'],
    adminEventsEnabled: true,
    adminEventsDetailsEnabled: true,
  },
  attributes: { 'team.owner': 'platform' },
};

/** The sections a new realm's create call carries after its own (realm-create-sections.ts): an identity provider
 * with a mapper and a client secret from Secret corp-idp, a client profile and a policy applying it, and on
 * Keycloak 26 an organization (e2e import and realm-sections). */
export const carriedSections = (
  major: number,
  clientId: string,
): Pick<IdentityRealm['spec'], 'identityProviders' | 'clientPolicies' | 'organizations'> => ({
  identityProviders: [
    {
      alias: 'corp',
      providerId: 'oidc',
      displayName: 'Corp',
      trustEmail: true,
      syncMode: 'FORCE',
      config: {
        clientId,
        authorizationUrl: 'https://corp.example.test/auth',
        tokenUrl: 'https://corp.example.test/token',
      },
      clientSecretRef: { name: 'corp-idp', key: 'secret' },
      mappers: [
        {
          name: 'dept',
          type: 'oidc-user-attribute-idp-mapper',
          config: { claim: 'dept', 'user.attribute': 'department' },
        },
      ],
    },
  ],
  clientPolicies: {
    profiles: [
      {
        name: 'pkce',
        executors: [{ executor: 'pkce-enforcer', configuration: { 'auto-configure': 'true' } }],
      },
    ],
    policies: [
      {
        name: 'public-pkce',
        conditions: [{ condition: 'client-access-type', configuration: { type: ['public'] } }],
        profiles: ['pkce'],
      },
    ],
  },
  ...(major >= 26
    ? { organizations: [{ name: 'Acme', alias: 'acme', domains: [{ name: 'acme.example.test' }] }] }
    : {}),
});
