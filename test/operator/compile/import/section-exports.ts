// One small realm export per importer section (Keycloak's field names and shapes, as its partial export writes
// them), each with something the CRDs can say and something they cannot: the golden tests' inputs.
/** A message key Keycloak resolves per locale (`${username}`). */
const msg = (key: string) => `\${${key}}`;

export const sectionExports: Record<string, Record<string, unknown>> = {
  'realm-fields': {
    realm: 'shop',
    displayName: 'Shop',
    enabled: false,
    loginTheme: 'keycloak.v2',
    registrationAllowed: true,
    sslRequired: 'external',
    accessTokenLifespan: 120,
    ssoSessionIdleTimeout: 1800,
    offlineSessionMaxLifespanEnabled: true,
    offlineSessionMaxLifespan: 5184000,
    internationalizationEnabled: true,
    supportedLocales: ['en', 'de'],
    defaultLocale: 'en',
    localizationTexts: { de: { loginAccountTitle: 'Anmelden' } },
    eventsEnabled: true,
    eventsListeners: ['jboss-logging'],
    enabledEventTypes: ['LOGIN'],
    browserFlow: 'my browser',
    registrationFlow: 'registration',
  },
  policies: {
    realm: 'shop',
    keycloakVersion: '26.0.0',
    browserSecurityHeaders: { xFrameOptions: 'DENY', xRobotsTag: 'none', xXSSProtection: '1; mode=block' },
    bruteForceProtected: true,
    failureFactor: 5,
    waitIncrementSeconds: 60,
    passwordPolicy:
      'length(12) and notUsername(undefined) and hashAlgorithm(pbkdf2-sha512) and maxAuthAge(300)',
    otpPolicyType: 'totp',
    otpPolicyDigits: 8,
    webAuthnPolicySignatureAlgorithms: ['ES256', 'RS256'],
    webAuthnPolicyPasswordlessRpId: 'id.example.com',
  },
  smtp: {
    realm: 'shop',
    smtpServer: {
      host: 'smtp.example.com',
      port: '587',
      from: 'a@example.com',
      starttls: 'true',
      auth: 'true',
      user: 'mailer',
      password: '**********',
      envelopeFrom: 'bounce@example.com',
    },
  },
  'roles-groups': {
    realm: 'shop',
    roles: {
      realm: [
        {
          name: 'offline_access',
          description: msg('role_offline-access'),
          composite: false,
          clientRole: false,
          attributes: {},
        },
        {
          name: 'uma_authorization',
          description: msg('role_uma_authorization'),
          composite: false,
          clientRole: false,
          attributes: {},
        },
        {
          name: 'default-roles-shop',
          description: msg('role_default-roles'),
          composite: true,
          clientRole: false,
          attributes: {},
          composites: {
            realm: ['offline_access', 'buyer'],
            client: { account: ['manage-account', 'view-profile', 'view-groups'] },
          },
        },
        {
          name: 'buyer',
          description: 'Buys things',
          composite: false,
          clientRole: false,
          attributes: { tier: ['gold'], 'realmforge.dev/owner': ['identity/shop'] },
        },
        {
          name: 'admin',
          composite: true,
          clientRole: false,
          composites: { realm: ['buyer'], client: { 'realm-management': ['view-users'] } },
        },
      ],
      client: {},
    },
    groups: [
      {
        name: 'staff',
        path: '/staff',
        attributes: { site: ['berlin'] },
        realmRoles: ['buyer'],
        clientRoles: {},
        subGroups: [
          {
            name: 'ops',
            path: '/staff/ops',
            realmRoles: ['admin'],
            clientRoles: { 'realm-management': ['view-clients'] },
            subGroups: [],
          },
        ],
      },
    ],
  },
  'client-scopes': {
    realm: 'shop',
    clientScopes: [
      {
        name: 'orders.read',
        description: 'Read orders',
        protocol: 'openid-connect',
        attributes: { 'include.in.token.scope': 'true' },
        protocolMappers: [
          {
            name: 'aud',
            protocol: 'openid-connect',
            protocolMapper: 'oidc-audience-mapper',
            consentRequired: false,
            config: { 'included.custom.audience': 'orders' },
          },
        ],
      },
      { name: 'email', description: 'changed by hand', protocol: 'openid-connect', attributes: {} },
    ],
    defaultDefaultClientScopes: [
      'role_list',
      'saml_organization',
      'AuthnContextClassRef',
      'profile',
      'roles',
      'web-origins',
      'acr',
      'basic',
      'orders.read',
    ],
    defaultOptionalClientScopes: ['offline_access', 'address', 'phone', 'microprofile-jwt', 'organization'],
  },
  'identity-providers': {
    realm: 'shop',
    identityProviders: [
      {
        alias: 'corp',
        providerId: 'oidc',
        displayName: 'Corp',
        enabled: true,
        trustEmail: true,
        storeToken: false,
        linkOnly: false,
        hideOnLogin: false,
        firstBrokerLoginFlowAlias: 'first broker login',
        updateProfileFirstLoginMode: 'on',
        config: {
          clientId: 'shop',
          clientSecret: '**********',
          authorizationUrl: 'https://corp.example.com/auth',
          syncMode: 'FORCE',
          'realmforge.dev/secret-hash': 'abc',
        },
      },
      { alias: 'legacy', providerId: 'custom-sso', config: {} },
    ],
    identityProviderMappers: [
      {
        name: 'dept',
        identityProviderAlias: 'corp',
        identityProviderMapper: 'oidc-user-attribute-idp-mapper',
        config: { syncMode: 'INHERIT', claim: 'dept', 'user.attribute': 'department' },
      },
    ],
  },
  authentication: {
    realm: 'shop',
    authenticationFlows: [
      {
        id: 'f1',
        alias: 'my browser',
        description: 'Cookie or form',
        providerId: 'basic-flow',
        topLevel: true,
        builtIn: false,
        authenticationExecutions: [
          {
            authenticator: 'auth-cookie',
            authenticatorFlow: false,
            requirement: 'ALTERNATIVE',
            priority: 10,
          },
          { authenticatorFlow: true, requirement: 'ALTERNATIVE', priority: 20, flowAlias: 'my forms' },
        ],
      },
      {
        id: 'f2',
        alias: 'my forms',
        providerId: 'basic-flow',
        topLevel: false,
        builtIn: false,
        authenticationExecutions: [
          {
            authenticator: 'auth-username-password-form',
            authenticatorFlow: false,
            requirement: 'REQUIRED',
            priority: 10,
          },
          {
            authenticator: 'conditional-user-role',
            authenticatorFlow: false,
            requirement: 'REQUIRED',
            priority: 20,
            authenticatorConfig: 'admins',
          },
        ],
      },
    ],
    authenticatorConfig: [
      { alias: 'admins', config: { condUserRole: 'admin' } },
      { alias: 'orphan', config: {} },
    ],
    requiredActions: [
      {
        alias: 'CONFIGURE_TOTP',
        name: 'Configure OTP',
        providerId: 'CONFIGURE_TOTP',
        enabled: true,
        defaultAction: true,
        priority: 54,
        config: {},
      },
      {
        alias: 'UPDATE_PASSWORD',
        name: 'Update Password',
        providerId: 'UPDATE_PASSWORD',
        enabled: true,
        defaultAction: false,
        priority: 57,
        config: {},
      },
    ],
  },
  'organizations-policies': {
    realm: 'shop',
    organizationsEnabled: true,
    organizations: [
      {
        name: 'Acme',
        alias: 'acme',
        enabled: true,
        description: 'A customer',
        domains: [{ name: 'acme.example', verified: true }],
        attributes: { tier: ['gold'] },
        members: [{ username: 'x' }],
      },
    ],
    clientProfiles: {
      profiles: [
        {
          name: 'strict',
          description: 'PKCE',
          executors: [{ executor: 'pkce-enforcer', configuration: { 'auto-configure': 'true' } }],
        },
      ],
    },
    clientPolicies: {
      policies: [
        {
          name: 'public',
          enabled: true,
          conditions: [{ condition: 'client-access-type', configuration: { type: ['public'] } }],
          profiles: ['strict'],
        },
      ],
    },
  },
  clients: {
    realm: 'shop',
    authenticationFlows: [
      {
        id: 'f1',
        alias: 'my browser',
        providerId: 'basic-flow',
        topLevel: true,
        builtIn: false,
        authenticationExecutions: [],
      },
    ],
    clients: [
      {
        clientId: 'Web_App',
        name: 'Web',
        enabled: true,
        protocol: 'openid-connect',
        publicClient: false,
        bearerOnly: false,
        clientAuthenticatorType: 'client-secret',
        secret: '**********',
        redirectUris: ['https://web.example/*'],
        webOrigins: ['+'],
        standardFlowEnabled: true,
        directAccessGrantsEnabled: true,
        serviceAccountsEnabled: true,
        frontchannelLogout: true,
        fullScopeAllowed: true,
        surrogateAuthRequired: false,
        notBefore: 0,
        nodeReRegistrationTimeout: -1,
        consentRequired: false,
        authenticationFlowBindingOverrides: { browser: 'f1' },
        attributes: {
          'pkce.code.challenge.method': 'S256',
          'post.logout.redirect.uris': 'https://web.example/a##https://web.example/b',
          'access.token.lifespan': '120',
          'oidc.ciba.grant.enabled': 'false',
          'backchannel.logout.session.required': 'true',
          'custom.flag': 'x',
        },
        defaultClientScopes: ['web-origins', 'acr', 'profile', 'roles', 'basic', 'email'],
        optionalClientScopes: ['address'],
        protocolMappers: [
          {
            name: 'aud',
            protocol: 'openid-connect',
            protocolMapper: 'oidc-audience-mapper',
            config: { 'included.client.audience': 'api' },
          },
        ],
        alwaysDisplayInConsole: true,
      },
      {
        clientId: 'spa',
        publicClient: true,
        protocol: 'openid-connect',
        standardFlowEnabled: true,
        frontchannelLogout: true,
        attributes: {},
      },
      { clientId: 'broker', name: msg('client_broker'), bearerOnly: true, description: 'changed' },
    ],
    roles: {
      realm: [],
      client: {
        Web_App: [
          { name: 'reader', description: 'Reads', composite: false, clientRole: true, attributes: {} },
        ],
      },
    },
    users: [
      {
        username: 'service-account-web_app',
        serviceAccountClientId: 'Web_App',
        realmRoles: ['default-roles-shop', 'buyer'],
        clientRoles: { 'realm-management': ['view-users'] },
      },
      { username: 'alice' },
      { username: 'bob' },
    ],
  },
  'user-profile': {
    realm: 'shop',
    components: {
      'org.keycloak.userprofile.UserProfileProvider': [
        {
          name: 'user-profile',
          providerId: 'declarative-user-profile',
          subComponents: {},
          config: {
            'kc.user.profile.config': [
              JSON.stringify({
                unmanagedAttributePolicy: 'ADMIN_VIEW',
                attributes: [
                  {
                    name: 'username',
                    displayName: msg('username'),
                    validations: {
                      length: { min: 3, max: 255 },
                      'username-prohibited-characters': {},
                      'up-username-not-idn-homograph': {},
                    },
                    permissions: { view: ['admin', 'user'], edit: ['admin', 'user'] },
                    multivalued: false,
                  },
                  {
                    name: 'email',
                    displayName: msg('email'),
                    validations: { email: {}, length: { max: 255 } },
                    required: { roles: ['user'] },
                    permissions: { view: ['admin', 'user'], edit: ['admin', 'user'] },
                    multivalued: false,
                  },
                  {
                    name: 'firstName',
                    displayName: msg('firstName'),
                    validations: { length: { max: 128 }, 'person-name-prohibited-characters': {} },
                    required: { roles: ['user'] },
                    permissions: { view: ['admin', 'user'], edit: ['admin', 'user'] },
                    multivalued: false,
                  },
                  {
                    name: 'staffNumber',
                    displayName: 'Staff number',
                    group: 'employment',
                    validations: { pattern: { pattern: '^[0-9]{6}$' } },
                    permissions: { view: ['admin'], edit: ['admin'] },
                    multivalued: false,
                    defaultValue: '000000',
                  },
                ],
                groups: [
                  {
                    name: 'user-metadata',
                    displayHeader: 'User metadata',
                    displayDescription: 'Attributes, which refer to user metadata',
                  },
                  { name: 'employment', displayHeader: 'Employment' },
                ],
              }),
            ],
          },
        },
      ],
    },
  },
  leftovers: {
    realm: 'shop',
    organizationsEnabled: true,
    attributes: {
      'team.owner': 'platform',
      cibaInterval: '5',
      frontendUrl: 'https://id.example',
      'realmforge.dev/owner': 'x',
      'realmforge.dev/record':
        '{"v":1,"owner":"identity/shop","how":"created","fields":[],"items":{"managed-roles":["buyer"]},"recorded":{}}',
      accessTokenLifespan: '120',
    },
    accessTokenLifespan: 120,
    scopeMappings: [
      { clientScope: 'offline_access', roles: ['offline_access'] },
      { clientScope: 'orders.read', roles: ['buyer'] },
    ],
    components: {
      'org.keycloak.keys.KeyProvider': [
        { name: 'rsa-generated', providerId: 'rsa-generated', config: { priority: ['100'] } },
        { name: 'imported', providerId: 'rsa', config: {} },
      ],
    },
    defaultSignatureAlgorithm: 'ES256',
  },
};
