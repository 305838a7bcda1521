import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { IdentityClient } from '../../../generated/types/crds/identityclient.ts';
import type { IdentityRealm } from '../../../generated/types/crds/identityrealm.ts';
import { compileClient } from '../../../src/operator/compile/client-representation.ts';
import { compileRealm } from '../../../src/operator/compile/realm-representation.ts';

const realm = (spec: Partial<IdentityRealm['spec']>, name = 'customers'): IdentityRealm => ({
  apiVersion: 'realmforge.dev/v1',
  kind: 'IdentityRealm',
  metadata: { name, namespace: 'identity' },
  spec: { serverRef: { name: 'kc' }, ...spec },
});
const client = (spec: Partial<IdentityClient['spec']>): IdentityClient => ({
  apiVersion: 'realmforge.dev/v1',
  kind: 'IdentityClient',
  metadata: { name: 'web', namespace: 'shop' },
  spec: { realmRef: { name: 'customers' }, ...spec },
});

test('a realm manages only what its spec says, named after metadata.name by default', () => {
  assert.equal(compileRealm(realm({})), { realm: 'customers', enabled: true });
  assert.is(compileRealm(realm({ realmName: 'Shop' })).realm, 'Shop');
});

test('login settings, token lifespans and themes map onto Keycloak field names', () => {
  const r = compileRealm(
    realm({
      displayName: 'Customers',
      login: { registrationAllowed: true, sslRequired: 'external', verifyEmail: false },
      tokens: { accessTokenLifespan: 300, ssoSessionIdleTimeout: 1800 },
      themes: { login: 'keycloak.v2', email: 'base' },
    }),
  );
  assert.equal(r, {
    realm: 'customers',
    enabled: true,
    displayName: 'Customers',
    registrationAllowed: true,
    sslRequired: 'external',
    verifyEmail: false,
    accessTokenLifespan: 300,
    ssoSessionIdleTimeout: 1800,
    loginTheme: 'keycloak.v2',
    emailTheme: 'base',
  });
});

test('SMTP settings are strings and the password comes only from the Secret input', () => {
  const spec = {
    smtp: {
      host: 'mail',
      port: 587,
      from: 'id@example.com',
      starttls: true,
      user: 'u',
      passwordSecretRef: { name: 's', key: 'p' },
    },
  };
  assert.equal(compileRealm(realm(spec), { smtpPassword: 'pw' }).smtpServer, {
    host: 'mail',
    port: '587',
    from: 'id@example.com',
    starttls: 'true',
    auth: 'true',
    user: 'u',
    password: 'pw',
  });
});

test('client types set the authentication and flow flags Keycloak expects', () => {
  const confidential = compileClient(client({ serviceAccount: { enabled: true } }));
  assert.is(confidential.publicClient, false);
  assert.is(confidential.clientAuthenticatorType, 'client-secret');
  assert.is(confidential.serviceAccountsEnabled, true);
  assert.is(confidential.standardFlowEnabled, true);
  const pub = compileClient(client({ type: 'public' }));
  assert.is(pub.publicClient, true);
  assert.is(pub.serviceAccountsEnabled, false);
  const bearer = compileClient(client({ type: 'bearer-only', standardFlow: false }));
  assert.is(bearer.bearerOnly, true);
  assert.is(bearer.standardFlowEnabled, false);
  assert.is(bearer.directAccessGrantsEnabled, false);
});

test('PKCE, post-logout redirects and protocol mappers land where Keycloak keeps them', () => {
  const c = compileClient(
    client({
      pkce: 'S256',
      postLogoutRedirectUris: ['https://a/', 'https://b/'],
      protocolMappers: [
        {
          name: 'aud',
          protocolMapper: 'oidc-audience-mapper',
          config: { 'included.client.audience': 'web' },
        },
      ],
    }),
  );
  assert.equal(c.attributes, {
    'pkce.code.challenge.method': 'S256',
    'post.logout.redirect.uris': 'https://a/##https://b/',
  });
  assert.equal(c.protocolMappers, [
    {
      name: 'aud',
      protocol: 'openid-connect',
      protocolMapper: 'oidc-audience-mapper',
      config: { 'included.client.audience': 'web' },
    },
  ]);
  assert.is(c.clientId, 'web');
});

test.run();
