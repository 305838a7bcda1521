// Realm client scopes through the realm sync against the strict in-memory Keycloak: created with their mappers and
// realm default/optional links, a steady resync writes nothing, hand edits reverted, removed attributes, mappers,
// scopes and links taken back; built-in and hand-made scopes and links untouched; a declared built-in name is a
// conflict, a link to no scope names the field.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { IdentityRealm } from '../../../generated/types/crds/identityrealm.ts';
import { syncRealm } from '../../../src/operator/controllers/identity-realm/realm-sync.ts';
import { ItemConflictError } from '../../../src/operator/keycloak/collections/collection.ts';
import { fakeKeycloakAdmin } from './fake-keycloak-admin.ts';
import { recorded } from './recorded.ts';

const resource = (spec: Partial<IdentityRealm['spec']>): IdentityRealm => ({
  apiVersion: 'realmforge.dev/v1',
  kind: 'IdentityRealm',
  metadata: { name: 'apps', namespace: 'team' },
  spec: { serverRef: { name: 'kc' }, ...spec },
});
const full = resource({
  clientScopes: [
    {
      name: 'orders',
      description: 'Order API',
      attributes: { 'include.in.token.scope': 'true', 'consent.screen.text': 'Your orders' },
      protocolMappers: [
        {
          name: 'aud',
          protocolMapper: 'oidc-audience-mapper',
          config: { 'included.custom.audience': 'orders' },
        },
      ],
    },
    { name: 'billing' },
  ],
  realmDefaultClientScopes: { default: ['orders', 'profile'], optional: ['billing'] },
});

const linked = (kc: ReturnType<typeof fakeKeycloakAdmin>, kind: 'default' | 'optional') => {
  const realm = kc.realms.get('apps');
  return (realm?.scopeLinks[kind] ?? [])
    .map((id) => realm?.clientScopes.find((c) => c.id === id)?.name)
    .sort();
};

test('scopes, their mappers and the realm links are created; a steady resync writes nothing', async () => {
  const kc = fakeKeycloakAdmin();
  const created = await syncRealm(kc.admin, full, {});
  assert.equal(created.writes, [
    'create realm',
    'create client scope orders',
    'create client scope billing',
    'create protocol mapper aud',
    'add realm default client scope orders',
    'add realm optional client scope billing',
  ]);
  const orders = kc.realms.get('apps')?.clientScopes.find((c) => c.name === 'orders');
  assert.is(orders?.attributes['realmforge.dev/owner'], undefined, 'no mark of its own');
  assert.equal([...recorded(kc.realms.get('apps'), 'clientScopes')].sort(), ['billing', 'orders']);
  assert.equal(
    orders?.protocolMappers.map((m: { name: string }) => m.name),
    ['aud'],
  );
  assert.equal(linked(kc, 'default'), [
    'acr',
    'basic',
    'email',
    'orders',
    'profile',
    'role_list',
    'roles',
    'web-origins',
  ]);
  assert.ok(linked(kc, 'optional').includes('billing'));
  kc.reset();
  assert.equal((await syncRealm(kc.admin, full, {})).writes, []);
  assert.equal(kc.writes(), []);
  assert.equal(kc.calls, [
    'GET /apps',
    'GET /apps/client-scopes',
    'GET /apps/default-default-client-scopes',
    'GET /apps/default-optional-client-scopes',
  ]);
});

test('hand edits are reverted; removed attribute, mapper, scope and links are taken back, hand-made kept', async () => {
  const kc = fakeKeycloakAdmin();
  await syncRealm(kc.admin, full, {});
  const realm = kc.realms.get('apps');
  const orders = realm?.clientScopes.find((c) => c.name === 'orders');
  if (!orders) throw new Error('no scope');
  orders.description = 'hacked';
  orders.protocolMappers.push({
    id: 'hm',
    name: 'by-hand',
    protocolMapper: 'oidc-hardcoded-claim-mapper',
    config: {},
  });
  realm?.clientScopes.push({
    id: 'hs',
    name: 'hand-made',
    protocol: 'openid-connect',
    attributes: {},
    protocolMappers: [],
  });
  realm?.scopeLinks.optional.push('hs');
  assert.equal((await syncRealm(kc.admin, full, {})).writes, ['update client scope orders']);
  assert.is(orders.description, 'Order API');
  const trimmed = resource({
    clientScopes: [{ name: 'orders', attributes: { 'include.in.token.scope': 'true' } }],
    realmDefaultClientScopes: { optional: ['orders'] },
  });
  const result = await syncRealm(kc.admin, trimmed, {});
  assert.ok(result.writes.includes('delete client scope billing'), result.writes.join('; '));
  assert.ok(result.writes.includes('delete protocol mapper aud'), result.writes.join('; '));
  assert.not.ok(linked(kc, 'default').includes('orders'), 'moved to optional');
  assert.ok(linked(kc, 'optional').includes('orders') && linked(kc, 'optional').includes('hand-made'));
  // Declarative: a link the spec declared and dropped is removed, even one Keycloak had made (documented).
  assert.not.ok(linked(kc, 'default').includes('profile'));
  assert.ok(linked(kc, 'default').includes('email'), "Keycloak's links the spec never named stay");
  assert.is(orders.attributes['consent.screen.text'] ?? '', '', 'the removed attribute is emptied');
  assert.equal(
    orders.protocolMappers.map((m: { name: string }) => m.name),
    ['by-hand'],
  );
  kc.reset();
  assert.equal((await syncRealm(kc.admin, trimmed, {})).writes, [], 'steady after pruning');
  await syncRealm(kc.admin, resource({}), {});
  assert.not.ok(
    realm?.clientScopes.some((c) => c.name === 'orders'),
    'the last declared scope is deleted',
  );
  assert.ok(realm?.clientScopes.some((c) => c.name === 'hand-made'));
  kc.reset();
  await syncRealm(kc.admin, resource({}), {});
  assert.equal(kc.calls, ['GET /apps'], 'nothing declared now or before: one read');
});

test("a declared scope named like Keycloak's own is a conflict; a link to no scope names the field", async () => {
  const kc = fakeKeycloakAdmin();
  await syncRealm(kc.admin, resource({}), {});
  try {
    await syncRealm(kc.admin, resource({ clientScopes: [{ name: 'profile' }] }), {});
    assert.unreachable('must refuse');
  } catch (error) {
    assert.instance(error, ItemConflictError);
    assert.match((error as Error).message, /spec\.clientScopes declares client scope "profile"/);
  }
  try {
    await syncRealm(kc.admin, resource({ realmDefaultClientScopes: { default: ['nope'] } }), {});
    assert.unreachable('must refuse');
  } catch (error) {
    assert.match(
      (error as Error).message,
      /spec\.realmDefaultClientScopes\.default names client scope "nope", which does not exist/,
    );
  }
});

test.run();
