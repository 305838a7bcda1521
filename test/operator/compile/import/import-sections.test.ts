// Golden tests of the importer, one small realm export per section (section-exports.ts): the IdentityRealm and
// IdentityClients it prints, the Secrets it refers to and what it reports it cannot express.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { toYaml } from '../../../../src/core/yaml.ts';
import { listAt } from '../../../../src/operator/compile/import/context.ts';
import { importRealm } from '../../../../src/operator/compile/import/import-realm.ts';
import { keycloakDefaultRealm } from '../../../../src/operator/compile/import/keycloak-defaults.ts';
import { createResourceValidator } from '../../../../src/operator/compile/resource-validator.ts';
import { loadCrdSchemas } from '../../../../src/operator/runtime/crd-schemas.ts';
import { assertGolden } from '../../../helpers/golden.ts';
import { sectionExports } from './section-exports.ts';

const golden = (name: string) => new URL(`golden/${name}.yaml`, import.meta.url).pathname;
const validate = createResourceValidator(loadCrdSchemas());
const options = {
  namespace: 'shop-apps',
  realmNamespace: 'identity',
  server: { name: 'keycloak' },
  source: 'export.json',
};

for (const [section, exp] of Object.entries(sectionExports)) {
  test(`section ${section}: golden, and valid against the CRD schemas`, () => {
    const result = importRealm(exp, options);
    for (const resource of [result.realm, ...result.clients]) validate(structuredClone(resource), section);
    assertGolden(toYaml(result), golden(section));
  });
}

test("SPNEGO on in Keycloak's browser flow is as Keycloak made it when the realm has Kerberos, a change otherwise", () => {
  const browser = listAt(keycloakDefaultRealm(26).authenticationFlows).find((f) => f.alias === 'browser');
  const executions = listAt(browser?.authenticationExecutions).map((e) =>
    e.authenticator === 'auth-spnego' ? { ...e, requirement: 'ALTERNATIVE' } : e,
  );
  const flows = [{ ...browser, authenticationExecutions: executions }];
  const kerberos = {
    name: 'krb',
    providerId: 'kerberos',
    config: { kerberosRealm: ['CORP'], serverPrincipal: ['HTTP/sso@CORP'], keyTab: ['/k'] },
  };
  const noted = (exp: Record<string, unknown>) =>
    importRealm({ realm: 'shop', authenticationFlows: flows, ...exp }, options).unexpressed.map(
      (u) => u.path,
    );
  assert.equal(noted({}), ['authenticationFlows[browser]']);
  assert.equal(noted({ components: { 'org.keycloak.storage.UserStorageProvider': [kerberos] } }), []);
});

test('a component other than a user storage provider needs no name (Keycloak exports its user profile without one)', () => {
  const profile = { providerId: 'declarative-user-profile', subComponents: {}, config: {} };
  const components = { 'org.keycloak.userprofile.UserProfileProvider': [profile] };
  assert.equal(importRealm({ realm: 'shop', components }, options).unexpressed, []);
});

test('keytabs: one per path, a mounted one by its name, two paths never under one name', () => {
  const kerberos = (name: string, keyTab: string) => ({
    name,
    providerId: 'kerberos',
    config: { kerberosRealm: ['X'], serverPrincipal: ['HTTP/x@X'], keyTab: [keyTab] },
  });
  const providers = [
    kerberos('a', '/etc/realmforge/keytabs/sso/krb5.keytab'),
    kerberos('b', '/etc/realmforge/keytabs/sso/krb5.keytab'),
    kerberos('SSO', '/opt/keycloak/sso.keytab'),
  ];
  const result = importRealm(
    { realm: 'shop', components: { 'org.keycloak.storage.UserStorageProvider': providers } },
    options,
  );
  assert.equal(
    result.realm.spec.userFederation?.kerberos?.map((k) => k.keytab),
    ['sso', 'sso', 'sso-2'],
  );
  assert.equal(result.keytabs, [
    { name: 'sso', path: '/etc/realmforge/keytabs/sso/krb5.keytab' },
    { name: 'sso-2', path: '/opt/keycloak/sso.keytab' },
  ]);
});

test('an LDAP or Kerberos provider without what the CRD requires is listed, not printed half', () => {
  const providers = [
    { name: 'no-dn', providerId: 'ldap', config: { connectionUrl: ['ldap://x'] } },
    {
      name: 'no-keytab',
      providerId: 'kerberos',
      config: { kerberosRealm: ['X'], serverPrincipal: ['HTTP/x@X'] },
    },
  ];
  const result = importRealm(
    { realm: 'shop', components: { 'org.keycloak.storage.UserStorageProvider': providers } },
    options,
  );
  assert.is(result.realm.spec.userFederation, undefined);
  assert.equal(
    result.unexpressed.map((u) => u.why),
    [
      'an LDAP provider without usersDn: the CRD requires them',
      'a Kerberos provider without keytab: the CRD requires them',
    ],
  );
});

test.run();
