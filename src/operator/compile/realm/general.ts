// General, Login and Tokens tabs: plain RealmRepresentation fields, named as Keycloak names them.
import { defined, type Fields, type RealmSpec } from './section.ts';

export const generalDefaults: Fields = {
  enabled: true,
  displayName: '',
  loginTheme: '',
  accountTheme: '',
  adminTheme: '',
  emailTheme: '',
};

export const loginDefaults: Fields = {
  registrationAllowed: false,
  registrationEmailAsUsername: false,
  editUsernameAllowed: false,
  resetPasswordAllowed: false,
  rememberMe: false,
  verifyEmail: false,
  loginWithEmailAllowed: true,
  duplicateEmailsAllowed: false,
  sslRequired: 'external',
};

export const tokenDefaults: Fields = {
  accessTokenLifespan: 300,
  accessTokenLifespanForImplicitFlow: 900,
  accessCodeLifespan: 60,
  accessCodeLifespanUserAction: 300,
  accessCodeLifespanLogin: 1800,
  ssoSessionIdleTimeout: 1800,
  ssoSessionMaxLifespan: 36000,
  ssoSessionIdleTimeoutRememberMe: 0,
  ssoSessionMaxLifespanRememberMe: 0,
  offlineSessionIdleTimeout: 2592000,
  offlineSessionMaxLifespanEnabled: false,
  offlineSessionMaxLifespan: 5184000,
  clientSessionIdleTimeout: 0,
  clientSessionMaxLifespan: 0,
  clientOfflineSessionIdleTimeout: 0,
  clientOfflineSessionMaxLifespan: 0,
  actionTokenGeneratedByAdminLifespan: 43200,
  actionTokenGeneratedByUserLifespan: 300,
  oauth2DeviceCodeLifespan: 600,
  oauth2DevicePollingInterval: 5,
  revokeRefreshToken: false,
  refreshTokenMaxReuse: 0,
};

export function compileGeneral(spec: RealmSpec): Fields {
  return defined({
    enabled: spec.enabled ?? true,
    displayName: spec.displayName,
    loginTheme: spec.themes?.login,
    accountTheme: spec.themes?.account,
    adminTheme: spec.themes?.admin,
    emailTheme: spec.themes?.email,
  });
}

export const compileLogin = (spec: RealmSpec): Fields => defined({ ...spec.login });

/** Token settings; an offline session max lifespan also turns its limit on (one field in the spec, two in Keycloak). */
export function compileTokens(spec: RealmSpec): Fields {
  const tokens = spec.tokens;
  if (!tokens) return {};
  return defined({
    ...tokens,
    offlineSessionMaxLifespanEnabled: tokens.offlineSessionMaxLifespan !== undefined ? true : undefined,
  });
}
