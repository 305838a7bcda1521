// How a realm's own settings are managed (see managed-fields.ts): Keycloak's default of every field the
// operator can set on a realm, so a field removed from the spec goes back to what a new realm has.
import type { FieldRules } from './managed-fields.ts';

export const realmFields: FieldRules = {
  noun: 'realm',
  defaults: {
    realm: undefined,
    enabled: true,
    displayName: '',
    registrationAllowed: false,
    resetPasswordAllowed: false,
    rememberMe: false,
    verifyEmail: false,
    loginWithEmailAllowed: true,
    duplicateEmailsAllowed: false,
    sslRequired: 'external',
    accessTokenLifespan: 300,
    accessCodeLifespan: 60,
    ssoSessionIdleTimeout: 1800,
    ssoSessionMaxLifespan: 36000,
    offlineSessionIdleTimeout: 2592000,
    loginTheme: '',
    accountTheme: '',
    adminTheme: '',
    emailTheme: '',
  },
  maps: ['attributes', 'smtpServer'],
  unreadable: ['smtpServer/password'],
  attributes: { map: 'attributes', listValues: false },
};
