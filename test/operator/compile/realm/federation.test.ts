// The federation compilers: every managed field explicit at Keycloak's default, secrets never in the
// representation (mask + keyed hash), Keycloak 25 and 26 differences, and refusals naming the field.
import { createHash } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  compileIdentityProvider,
  compileIdentityProviderMappers,
  secretHashKey,
} from '../../../../src/operator/compile/realm/identity-providers.ts';
import {
  compileLdapMappers,
  compileLdapProvider,
} from '../../../../src/operator/compile/realm/user-federation.ts';
import { secretHash } from '../../../../src/operator/compile/secret-hash.ts';

const idp = { alias: 'up', providerId: 'oidc' as const, config: { clientId: 'c' } };

test('an identity provider: defaults explicit; hideOnLogin is a field on 26 and config on 25', () => {
  const on26 = compileIdentityProvider('r', { ...idp, hideOnLogin: true }, 0, { keycloakMajor: 26 });
  assert.equal(on26, {
    alias: 'up',
    providerId: 'oidc',
    displayName: '',
    enabled: true,
    trustEmail: false,
    storeToken: false,
    linkOnly: false,
    hideOnLogin: true,
    firstBrokerLoginFlowAlias: 'first broker login',
    postBrokerLoginFlowAlias: '',
    config: { clientId: 'c', syncMode: 'LEGACY' },
  });
  const on25 = compileIdentityProvider('r', { ...idp, hideOnLogin: true }, 0, { keycloakMajor: 25 });
  assert.not.ok('hideOnLogin' in on25);
  assert.is((on25.config as Record<string, string>).hideOnLoginPage, 'true');
});

test('the client secret is a mask and an HMAC with the server key, salted by realm and alias', () => {
  const cfg = (realm: string, secret: string, hashKey = 'k1') =>
    compileIdentityProvider(realm, idp, 0, { clientSecret: secret, keycloakMajor: 26, hashKey })
      .config as Record<string, string>;
  assert.is(cfg('r', 's1').clientSecret, '**********');
  assert.not.ok(JSON.stringify(cfg('r', 's1')).includes('s1"'));
  assert.is.not(cfg('r', 's1')[secretHashKey], cfg('r', 's2')[secretHashKey]);
  assert.is.not(cfg('r', 's1')[secretHashKey], cfg('other', 's1')[secretHashKey]);
  assert.is.not(cfg('r', 's1')[secretHashKey], cfg('r', 's1', 'k2')[secretHashKey], 'keyed');
  const unkeyed = createHash('sha256').update('r/up\0s1').digest('hex').slice(0, 32);
  assert.is.not(cfg('r', 's1')[secretHashKey], unkeyed);
  assert.is(cfg('r', 's1')[secretHashKey], secretHash('k1', 'r/up', 's1'));
});

test('secrets and signing keys inline in config are refused with the field and the way out', () => {
  const cases = [
    ['clientSecret', 'clientSecretRef'],
    ['signingPrivateKey', 'clientSecretRef'],
    ['publicKeySignatureVerifier', 'signingKeyRef'],
    ['signingCertificate', 'signingKeyRef'],
  ];
  for (const [key, ref] of cases)
    assert.throws(
      () => compileIdentityProvider('r', { ...idp, config: { [key]: 'x' } }, 3, { keycloakMajor: 26 }),
      (e: Error) =>
        e.message ===
        `spec.identityProviders[3] (up): config.${key} is refused inline: put it in a Secret and set ${ref}`,
    );
});

const signingRef = { name: 'k', key: 'pem' };
test('signingKeyRef: OIDC verifies with the key from the Secret, SAML with the certificate', () => {
  const oidc = compileIdentityProvider('r', { ...idp, signingKeyRef: signingRef }, 0, {
    keycloakMajor: 26,
    signingKey: 'MIIBIjAN\n',
  }).config as Record<string, string>;
  assert.equal(oidc, {
    clientId: 'c',
    syncMode: 'LEGACY',
    validateSignature: 'true',
    useJwksUrl: 'false',
    publicKeySignatureVerifier: 'MIIBIjAN',
  });
  const saml = compileIdentityProvider(
    'r',
    { alias: 's', providerId: 'saml', config: { entityId: 'e' }, signingKeyRef: signingRef },
    0,
    { keycloakMajor: 26, signingKey: 'MIIC' },
  ).config as Record<string, string>;
  assert.equal(saml, {
    entityId: 'e',
    syncMode: 'LEGACY',
    validateSignature: 'true',
    signingCertificate: 'MIIC',
  });
});

test('signingKeyRef is refused on a social provider and against a config that says otherwise', () => {
  const refused = (spec: Record<string, unknown>, text: string) =>
    assert.throws(
      () =>
        compileIdentityProvider('r', { ...idp, signingKeyRef: signingRef, ...spec } as never, 2, {
          keycloakMajor: 26,
          signingKey: 'k',
        }),
      (e: Error) => e.message.startsWith('spec.identityProviders[2]') && e.message.includes(text),
    );
  refused(
    { providerId: 'github' },
    'signingKeyRef is for oidc, keycloak-oidc and saml providers, not github',
  );
  refused({ config: { useJwksUrl: 'true' } }, 'config.useJwksUrl is "true"');
  refused({ config: { validateSignature: 'false' } }, 'config.validateSignature is "false"');
});

test('identity provider mappers carry the alias, the type and INHERIT by default', () => {
  const mappers = compileIdentityProviderMappers({
    ...idp,
    mappers: [{ name: 'admins', type: 'hardcoded-role-idp-mapper', config: { role: 'admin' } }],
  });
  assert.equal(mappers, [
    {
      name: 'admins',
      identityProviderAlias: 'up',
      identityProviderMapper: 'hardcoded-role-idp-mapper',
      config: { role: 'admin', syncMode: 'INHERIT' },
    },
  ]);
});

test('an LDAP provider: Keycloak list-valued settings, defaults explicit, bind password masked', () => {
  const c = compileLdapProvider(
    'realm-id',
    {
      name: 'dir',
      connectionUrl: 'ldap://h',
      usersDn: 'ou=p',
      bindDn: 'cn=a',
      searchScope: 'Subtree',
      startTls: true,
    },
    0,
    'pw',
    true,
  );
  const config = c.config as Record<string, string[]>;
  assert.equal(
    { ...c, config: undefined },
    {
      name: 'dir',
      providerId: 'ldap',
      providerType: 'org.keycloak.storage.UserStorageProvider',
      parentId: 'realm-id',
      config: undefined,
    },
  );
  assert.equal(config.searchScope, ['2']);
  assert.equal(config.startTls, ['true']);
  assert.equal(config.authType, ['simple']);
  assert.equal(config.userObjectClasses, ['inetOrgPerson, organizationalPerson']);
  assert.equal(config.editMode, ['READ_ONLY']);
  assert.equal(config.fullSyncPeriod, ['-1']);
  assert.equal(config.bindCredential, ['**********']);
  assert.not.ok(JSON.stringify(c).includes('"pw"'), 'sent before: only the mask');
  const changed = compileLdapProvider(
    'id',
    { name: 'dir', connectionUrl: 'ldap://h', usersDn: 'ou=p', bindDn: 'cn=a' },
    0,
    'pw',
    false,
  );
  assert.equal((changed.config as Record<string, string[]>).bindCredential, ['pw'], 'a new password is sent');
  const anonymous = compileLdapProvider(
    'id',
    { name: 'd', connectionUrl: 'ldap://h', usersDn: 'ou=p' },
    0,
    undefined,
  );
  assert.equal((anonymous.config as Record<string, string[]>).authType, ['none']);
  assert.not.ok('bindCredential' in (anonymous.config as object));
});

test('bindDn without a bind password is refused naming the provider', () => {
  assert.throws(
    () =>
      compileLdapProvider(
        'id',
        { name: 'd', connectionUrl: 'ldap://h', usersDn: 'ou=p', bindDn: 'cn=a' },
        2,
        undefined,
      ),
    /spec\.userFederation\.ldap\[2\] \(d\): bindDn needs bindCredentialRef/,
  );
});

test('LDAP mappers are components under the provider with list-valued config', () => {
  const m = compileLdapMappers(
    {
      name: 'd',
      connectionUrl: 'ldap://h',
      usersDn: 'ou=p',
      mappers: [{ name: 'g', type: 'group-ldap-mapper', config: { 'groups.dn': 'ou=g' } }],
    },
    'pid',
  );
  assert.equal(m, [
    {
      name: 'g',
      providerId: 'group-ldap-mapper',
      providerType: 'org.keycloak.storage.ldap.mappers.LDAPStorageMapper',
      parentId: 'pid',
      config: { 'groups.dn': ['ou=g'] },
    },
  ]);
});

test.run();
