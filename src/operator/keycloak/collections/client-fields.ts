// How a client's own settings are managed (see managed-fields.ts): Keycloak's default of every field the
// operator can leave out of a client, so a field removed from the spec goes back to what a new client has.
import type { FieldRules } from './managed-fields.ts';

export const clientFields: FieldRules = {
  noun: 'client',
  defaults: {
    clientId: undefined,
    name: '',
    description: '',
    enabled: true,
    protocol: 'openid-connect',
    publicClient: false,
    bearerOnly: false,
    clientAuthenticatorType: 'client-secret',
    rootUrl: '',
    baseUrl: '',
    redirectUris: [],
    webOrigins: [],
    standardFlowEnabled: true,
    directAccessGrantsEnabled: false,
    implicitFlowEnabled: false,
    serviceAccountsEnabled: false,
    authorizationServicesEnabled: false,
    consentRequired: false,
    fullScopeAllowed: true,
    frontchannelLogout: false,
    secret: undefined,
  },
  maps: ['attributes', 'authenticationFlowBindingOverrides'],
  sets: ['redirectUris', 'webOrigins'],
  unreadable: [],
  attributes: { map: 'attributes', listValues: false },
};
