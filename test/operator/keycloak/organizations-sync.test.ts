// Organizations through the realm sync against the strict in-memory Keycloak: declaring one turns the feature on and
// creates it, domains compared as a set, a hand edit reverted, a removed one deleted (before the feature is turned
// off again), a hand-made one kept; on Keycloak 25 the section is refused before anything is written.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { IdentityRealm } from '../../../generated/types/crds/identityrealm.ts';
import { identityRealmController } from '../../../src/operator/controllers/identity-realm/identity-realm.ts';
import { syncRealm } from '../../../src/operator/controllers/identity-realm/realm-sync.ts';
import { keycloakWorld, readyServer, realmResource, statusOf } from '../controllers/keycloak-world.ts';
import { fakeKeycloakAdmin } from './fake-keycloak-admin.ts';
import { recorded } from './recorded.ts';

const resource = (spec: Partial<IdentityRealm['spec']>): IdentityRealm => ({
  apiVersion: 'realmforge.dev/v1',
  kind: 'IdentityRealm',
  metadata: { name: 'apps', namespace: 'team' },
  spec: { serverRef: { name: 'kc' }, ...spec },
});
type Org = NonNullable<IdentityRealm['spec']['organizations']>[number];
const acme: Org = {
  name: 'acme',
  description: 'Acme Inc.',
  domains: [{ name: 'acme.test' }, { name: 'acme.example', verified: true }],
  attributes: { tier: ['gold'] },
};
const on26 = { keycloakVersion: '26.7.3' };

test('organizations: turned on and created, steady with domains in any order, reverted, pruned, hand-made kept', async () => {
  const kc = fakeKeycloakAdmin();
  const created = await syncRealm(kc.admin, resource({ organizations: [acme] }), on26);
  // The create call carried it (realm-create-sections.ts).
  assert.equal(created.writes, ['create realm']);
  assert.equal(kc.writes(), ['POST ']);
  const realm = kc.realms.get('apps');
  assert.is(realm?.organizationsEnabled, true);
  const org = realm?.organizations[0];
  assert.equal(org?.attributes, { tier: ['gold'] }, 'no mark of its own');
  assert.equal([...recorded(realm, 'organizations')], ['acme'], 'the create call recorded it');
  kc.reset();
  assert.equal((await syncRealm(kc.admin, resource({ organizations: [acme] }), on26)).writes, []);
  assert.equal(kc.writes(), []);
  if (!org) throw new Error('no organization');
  org.description = 'by hand';
  assert.equal((await syncRealm(kc.admin, resource({ organizations: [acme] }), on26)).writes, [
    'update organization acme',
  ]);
  assert.is(org.description, 'Acme Inc.');
  realm?.organizations.push({ id: 'h', name: 'hand-made', domains: [{ name: 'h.test' }], attributes: {} });
  const result = await syncRealm(kc.admin, resource({}), on26);
  assert.equal(
    result.writes,
    [
      'delete organization acme',
      'update realm (attributes/realmforge.dev/managed-organizations, organizationsEnabled, attributes/realmforge.dev/managed-fields)',
    ].map((w) => w.replace(', attributes/realmforge.dev/managed-fields', ', realmforge.dev/managed-fields')),
  );
  assert.equal(
    realm?.organizations.map((o) => o.name),
    ['hand-made'],
  );
  assert.is(realm?.organizationsEnabled, false, 'turned off after the pruning');
});

test('on Keycloak 25 the section is Failed/InvalidSpec naming it, and nothing is written', async () => {
  const kc = fakeKeycloakAdmin();
  try {
    await syncRealm(kc.admin, resource({ organizations: [acme] }), { keycloakVersion: '25.0.6' });
    assert.unreachable('must refuse');
  } catch (error) {
    assert.match(
      (error as Error).message,
      /spec\.organizations needs Keycloak 26 or later; this server runs Keycloak 25\.0\.6/,
    );
  }
  assert.equal(kc.writes(), []);
  const world = keycloakWorld([realmResource('apps', 'identity', { organizations: [acme] })], {
    ...readyServer({ image: { tag: '25.0.6' } }),
    status: { phase: 'Ready', version: '25.0.6' },
  });
  const outcome = await identityRealmController(world.deps)('identity/apps');
  assert.is(outcome.outcome?.reason, 'InvalidSpec');
  const status = statusOf(world, 'IdentityRealm', 'identity', 'apps');
  assert.is(status.phase, 'Failed');
  assert.match(status.message ?? '', 'spec.organizations needs Keycloak 26 or later');
  assert.equal(world.keycloak.writes(), [], 'no realm created half-way');
});

test.run();
