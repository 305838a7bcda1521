// Every OIDC setting of IdentityClient compiles to the Keycloak field or attribute a user would look up, and
// leaving it out leaves it out (so the managed-field rule can reset it).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { IdentityClient } from '../../../generated/types/crds/identityclient.ts';
import { certificateBody, compileClient } from '../../../src/operator/compile/client-representation.ts';

const client = (spec: Partial<IdentityClient['spec']>): IdentityClient => ({
  apiVersion: 'realmforge.dev/v1',
  kind: 'IdentityClient',
  metadata: { name: 'api', namespace: 'team' },
  spec: { realmRef: { name: 'apps' }, ...spec },
});

const cases: [string, Partial<IdentityClient['spec']>, Record<string, unknown>, Record<string, string>][] = [
  [
    'client-jwt with a JWKS URL',
    {
      authentication: {
        method: 'client-jwt',
        jwksUrl: 'https://api.example/jwks',
        signatureAlgorithm: 'RS256',
      },
    },
    { clientAuthenticatorType: 'client-jwt' },
    {
      'use.jwks.url': 'true',
      'jwks.url': 'https://api.example/jwks',
      'token.endpoint.auth.signing.alg': 'RS256',
    },
  ],
  [
    'x509',
    { authentication: { method: 'client-x509', subjectDN: 'CN=api', allowRegex: false } },
    { clientAuthenticatorType: 'client-x509' },
    { 'x509.subjectdn': 'CN=api', 'x509.allow.regex.pattern.comparison': 'false' },
  ],
  [
    'consent',
    { consent: { required: true, screenText: 'The API' } },
    { consentRequired: true },
    { 'display.on.consent.screen': 'true', 'consent.screen.text': 'The API' },
  ],
  [
    'grants',
    { implicitFlow: true, deviceAuthorizationGrant: true, ciba: false },
    { implicitFlowEnabled: true },
    { 'oauth2.device.authorization.grant.enabled': 'true', 'oidc.ciba.grant.enabled': 'false' },
  ],
  [
    'logout',
    {
      frontchannelLogout: { enabled: true, url: 'https://a/fl', sessionRequired: true },
      backchannelLogout: { url: 'https://a/bl', sessionRequired: false, revokeOfflineTokens: true },
    },
    { frontchannelLogout: true },
    {
      'frontchannel.logout.url': 'https://a/fl',
      'frontchannel.logout.session.required': 'true',
      'backchannel.logout.url': 'https://a/bl',
      'backchannel.logout.session.required': 'false',
      'backchannel.logout.revoke.offline.tokens': 'true',
    },
  ],
  [
    'tokens',
    {
      fullScopeAllowed: false,
      tokens: {
        accessTokenLifespan: 60,
        clientSessionIdleTimeout: 600,
        clientSessionMaxLifespan: 3600,
        clientOfflineSessionIdleTimeout: 7200,
        clientOfflineSessionMaxLifespan: 86400,
        useRefreshTokens: false,
        useLightweightAccessToken: true,
        idTokenSignatureAlgorithm: 'ES256',
        accessTokenSignatureAlgorithm: 'PS256',
      },
    },
    { fullScopeAllowed: false },
    {
      'access.token.lifespan': '60',
      'client.session.idle.timeout': '600',
      'client.session.max.lifespan': '3600',
      'client.offline.session.idle.timeout': '7200',
      'client.offline.session.max.lifespan': '86400',
      'use.refresh.tokens': 'false',
      'client.use.lightweight.access.token.enabled': 'true',
      'id.token.signed.response.alg': 'ES256',
      'access.token.signed.response.alg': 'PS256',
    },
  ],
  [
    'free-form attributes lose to typed fields',
    {
      pkce: 'S256',
      attributes: {
        'pkce.code.challenge.method': 'plain',
        'tls.client.certificate.bound.access.tokens': 'true',
      },
    },
    {},
    { 'pkce.code.challenge.method': 'S256', 'tls.client.certificate.bound.access.tokens': 'true' },
  ],
];

for (const [name, spec, fields, attributes] of cases) {
  test(`compiles ${name}`, () => {
    const rep = compileClient(client(spec)) as Record<string, unknown>;
    for (const [k, v] of Object.entries(fields)) assert.equal(rep[k], v, k);
    assert.equal(rep.attributes, attributes);
  });
}

test('a client with none of them sets none of them', () => {
  const rep = compileClient(client({})) as Record<string, unknown>;
  assert.is(rep.attributes, undefined);
  for (const field of [
    'consentRequired',
    'fullScopeAllowed',
    'frontchannelLogout',
    'authenticationFlowBindingOverrides',
  ])
    assert.is(rep[field], undefined, field);
  assert.is(rep.clientAuthenticatorType, 'client-secret');
});

test('client-jwt with a certificate from a Secret stores its base64 body; flow overrides name the bindings', () => {
  const pem = '-----BEGIN CERTIFICATE-----\nMIIBfake\nAAAA\n-----END CERTIFICATE-----\n';
  assert.is(certificateBody(pem), 'MIIBfakeAAAA');
  const rep = compileClient(
    client({
      authentication: { method: 'client-jwt', certificateSecretRef: { name: 'api-cert', key: 'tls.crt' } },
      authenticationFlowOverrides: { directGrant: 'strict grant' },
    }),
    { certificate: pem },
  );
  assert.equal(rep.attributes, { 'use.jwks.url': 'false', 'jwt.credential.certificate': 'MIIBfakeAAAA' });
  assert.equal(rep.authenticationFlowBindingOverrides, { direct_grant: 'strict grant' });
});

test.run();
