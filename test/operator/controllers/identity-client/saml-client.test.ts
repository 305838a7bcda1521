// A SAML client through the controller: created with protocol saml and the certificate from its Secret, its
// credentials Secret holds the IdP metadata URL, entity ID and the realm's signing certificate (never a client
// secret), status gives the SAML endpoints; a mapper of the other protocol and a secret rotation are refused.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { identityClientController } from '../../../../src/operator/controllers/identity-client/identity-client.ts';
import { identityRealmController } from '../../../../src/operator/controllers/identity-realm/identity-realm.ts';
import { secretValue } from '../../../../src/operator/runtime/read-secret.ts';
import { fakeRealmCertificate } from '../../keycloak/fake-keycloak-admin.ts';
import { clientResource, keycloakWorld, realmResource, statusOf, type World } from '../keycloak-world.ts';

const entityId = 'https://sp.example/metadata';
const spCert = '-----BEGIN CERTIFICATE-----\nMIIBsp\n-----END CERTIFICATE-----\n';

async function world(spec: object): Promise<World> {
  const w = keycloakWorld([
    realmResource('apps', 'identity', { clientAuthorizationGrants: ['team'] }),
    clientResource('sp', 'team', { clientId: entityId, protocol: 'saml', redirectUris: [], ...spec }),
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'sp-cert', namespace: 'team' },
      data: { 'tls.crt': Buffer.from(spCert).toString('base64') },
    },
  ]);
  await identityRealmController(w.deps)('identity/apps');
  return w;
}
const reconcile = (w: World) => identityClientController(w.deps)('team/sp');

test('a SAML client is Ready; its Secret has the IdP metadata URL, entity ID and signing certificate', async () => {
  const w = await world({
    saml: {
      assertionConsumerServiceUrl: 'https://sp.example/acs',
      signingCertificateSecretRef: { name: 'sp-cert', key: 'tls.crt' },
    },
    protocolMappers: [{ name: 'role list', protocol: 'saml', protocolMapper: 'saml-role-list-mapper' }],
  });
  assert.is((await reconcile(w)).outcome?.phase, 'Ready');
  const kc = w.keycloak.realms.get('apps')?.clients.find((c) => c.clientId === entityId);
  assert.is(kc?.protocol, 'saml');
  assert.is(kc?.attributes['saml.signing.certificate'], 'MIIBsp');
  assert.is(kc?.attributes['saml.client.signature'], 'true');
  const secret = w.kube.find('Secret', 'team', 'sp-credentials');
  const issuer = secretValue(secret, 'issuer');
  assert.is(secretValue(secret, 'entity-id'), entityId);
  assert.is(secretValue(secret, 'idp-metadata-url'), `${issuer}/protocol/saml/descriptor`);
  const pem = secretValue(secret, 'idp-signing-certificate') ?? '';
  assert.ok(pem.startsWith('-----BEGIN CERTIFICATE-----\n'));
  assert.is(pem.replace(/-----[A-Z ]+-----|\s/g, ''), fakeRealmCertificate);
  assert.is(secretValue(secret, 'client-secret'), undefined, 'a SAML client has no secret to hand out');
  assert.is(secretValue(secret, 'token-endpoint'), undefined);
  const status = w.kube.find('IdentityClient', 'team', 'sp')?.status as {
    endpoints?: Record<string, string>;
  };
  assert.is(status.endpoints?.samlMetadata, `${issuer}/protocol/saml/descriptor`);
  w.keycloak.reset();
  await reconcile(w);
  assert.equal(w.keycloak.writes(), [], 'a steady resync writes nothing');
});

test('an openid-connect mapper on a SAML client and a rotation of it are Failed/InvalidSpec, nothing created', async () => {
  const w = await world({
    protocolMappers: [{ name: 'aud', protocol: 'openid-connect', protocolMapper: 'oidc-audience-mapper' }],
    secretRotation: { period: '24h' },
  });
  w.keycloak.reset();
  await reconcile(w);
  const status = statusOf(w, 'IdentityClient', 'team', 'sp');
  assert.is(status.reason, 'InvalidSpec');
  assert.match(
    status.message ?? '',
    /spec\.protocolMappers\[aud\]\.protocol: openid-connect mapper on a saml client/,
  );
  assert.match(status.message ?? '', /spec\.secretRotation: only a confidential client .*this one is saml/);
  assert.equal(w.keycloak.writes(), []);
});

test.run();
