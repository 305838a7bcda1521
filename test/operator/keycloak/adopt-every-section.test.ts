// Adoption is one rule for every section (docs/ownership.md): a realm built by hand holding exactly what the spec
// declares, in every section the operator keeps (roles, groups and subgroups, client scopes, organizations,
// identity providers and their mappers, message overrides, the user profile, default roles, client profiles and
// policies), is refused item by item without spec.adoptExisting, and with it is taken over by writes to the realm
// alone (its ownership record): no item is written. Then a resync writes nothing.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { IdentityRealm } from '../../../generated/types/crds/identityrealm.ts';
import { syncRealm } from '../../../src/operator/controllers/identity-realm/realm-sync.ts';
import { openRecord, recordAttribute } from '../../../src/operator/keycloak/collections/record.ts';
import { sectionLedgers } from '../../../src/operator/keycloak/collections/section-ownership.ts';
import { pkceClientPolicies } from '../../helpers/realm-specs.ts';
import { fakeKeycloakAdmin } from './fake-keycloak-admin.ts';
import { recorded } from './recorded.ts';

type Spec = IdentityRealm['spec'];
const spec: Spec = {
  serverRef: { name: 'kc' },
  roles: [{ name: 'reader', description: 'Reads' }, { name: 'member' }],
  groups: [
    { name: 'eng', realmRoles: ['reader'] },
    { name: 'backend', parent: '/eng' },
  ],
  clientScopes: [{ name: 'orders', description: 'Orders' }],
  organizations: [{ name: 'acme', domains: [{ name: 'acme.test' }] }],
  identityProviders: [
    {
      alias: 'upstream',
      providerId: 'oidc',
      config: { issuer: 'http://up/realms/up', clientId: 'broker', authorizationUrl: 'http://up/auth' },
      clientSecretRef: { name: 'idp', key: 'value' },
      mappers: [{ name: 'dept', type: 'oidc-user-attribute-idp-mapper', config: { claim: 'dept' } }],
    },
  ],
  localization: { supportedLocales: ['en'], messages: { en: { loginTitle: 'Welcome' } } },
  userProfile: { attributes: [{ name: 'badge', displayName: 'Badge' }] },
  defaultRoles: { realm: ['member'] },
  clientPolicies: pkceClientPolicies(),
} as Spec;
const resource = (extra: Partial<Spec> = {}): IdentityRealm => ({
  apiVersion: 'realmforge.dev/v1',
  kind: 'IdentityRealm',
  metadata: { name: 'apps', namespace: 'team' },
  spec: { ...spec, ...extra },
});
const inputs = {
  keycloakVersion: '26.7.3',
  hashKey: 'key',
  federation: { identityProviders: new Map([['upstream', 'idp-secret']]), ldap: new Map() },
};

test('a realm built by hand with every section the spec declares: adopted by writes to the realm alone', async () => {
  const kc = fakeKeycloakAdmin();
  // Built with the operator's help, then made a person's: the record removed, every item as it was.
  await syncRealm(kc.admin, resource(), inputs);
  const realm = kc.realms.get('apps') as unknown as { attributes: Record<string, unknown> };
  const before = openRecord(realm).attributes ?? {};
  delete realm.attributes[recordAttribute];
  kc.reset();

  const refused = await syncRealm(kc.admin, resource(), inputs).then(
    () => undefined,
    (e: Error & { reason?: string }) => e,
  );
  assert.is(refused?.reason, 'NameConflict', 'not ours without adoption');
  assert.equal(
    kc.writes().filter((w) => w !== 'PUT /apps'),
    [],
    'nothing of the items written',
  );

  kc.reset();
  await syncRealm(kc.admin, resource({ adoptExisting: true }), inputs);
  assert.ok(kc.writes().length > 0, 'the record was written');
  assert.equal(
    kc.writes().filter((w) => w !== 'PUT /apps'),
    [],
    'adopted with writes to the realm (its record) alone',
  );
  for (const name of Object.keys(sectionLedgers) as (keyof typeof sectionLedgers)[])
    assert.equal(recorded(realm, name), recorded({ attributes: before }, name), `${name} recorded`);
  for (const entry of ['managed-messages', 'managed-default-roles', 'client-profiles', 'client-policies'])
    assert.ok(openRecord(realm).attributes?.[`realmforge.dev/${entry}`], entry);

  kc.reset();
  await syncRealm(kc.admin, resource({ adoptExisting: true }), inputs);
  assert.equal(kc.writes(), [], 'then a resync writes nothing');
});

test.run();
