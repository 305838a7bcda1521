// A SAML client compiles to Keycloak's protocol saml and its SamlConfigAttributes names; OIDC-only fields stay out;
// client signature and encryption are always said (Keycloak would turn client signature on for a new client).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { IdentityClient } from '../../../generated/types/crds/identityclient.ts';
import { compileClient } from '../../../src/operator/compile/client-representation.ts';

const saml = (spec: Partial<IdentityClient['spec']> = {}): IdentityClient => ({
  apiVersion: 'realmforge.dev/v1',
  kind: 'IdentityClient',
  metadata: { name: 'sp', namespace: 'team' },
  spec: { realmRef: { name: 'apps' }, clientId: 'https://sp.example/metadata', protocol: 'saml', ...spec },
});
const pem = '-----BEGIN CERTIFICATE-----\nMIIB\nAAAA\n-----END CERTIFICATE-----\n';

test('a full SAML client: entity ID, URLs, name ID, signing and encryption certificates, binding', () => {
  const rep = compileClient(
    saml({
      serviceAccount: { enabled: true },
      directAccessGrants: true,
      saml: {
        assertionConsumerServiceUrl: 'https://sp.example/acs',
        singleLogoutServiceUrl: 'https://sp.example/slo',
        nameIdFormat: 'email',
        signDocuments: true,
        signAssertions: true,
        signatureAlgorithm: 'RSA_SHA512',
        forcePostBinding: false,
        forceNameIdFormat: true,
      },
    }),
    { samlSigningCertificate: pem, samlEncryptionCertificate: pem },
  );
  assert.is(rep.protocol, 'saml');
  assert.is(rep.clientId, 'https://sp.example/metadata');
  assert.is(rep.clientAuthenticatorType, undefined);
  assert.equal(
    [rep.publicClient, rep.bearerOnly, rep.serviceAccountsEnabled, rep.directAccessGrantsEnabled],
    [false, false, false, false],
  );
  assert.equal(rep.attributes, {
    saml_assertion_consumer_url_post: 'https://sp.example/acs',
    saml_single_logout_service_url_post: 'https://sp.example/slo',
    saml_name_id_format: 'email',
    saml_force_name_id_format: 'true',
    'saml.server.signature': 'true',
    'saml.assertion.signature': 'true',
    'saml.signature.algorithm': 'RSA_SHA512',
    'saml.force.post.binding': 'false',
    'saml.client.signature': 'true',
    'saml.signing.certificate': 'MIIBAAAA',
    'saml.encrypt': 'true',
    'saml.encryption.certificate': 'MIIBAAAA',
  });
});

test('a bare SAML client: no OIDC attributes; client signature and encryption off, not left to Keycloak', () => {
  const rep = compileClient(saml({ pkce: 'S256' }));
  assert.equal(rep.attributes, { 'saml.client.signature': 'false', 'saml.encrypt': 'false' });
});

test.run();
