// Client profiles and policies through the realm sync against the strict in-memory Keycloak: created (profiles
// before the policies applying them), steady, a hand edit reverted, hand-made ones and Keycloak's global profiles
// kept, a dropped profile deleted only after the policy applying it; a global profile's name and an executor or
// condition the server lacks are refused naming the field, before anything is written.

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { IdentityRealm } from '../../../generated/types/crds/identityrealm.ts';
import { identityRealmController } from '../../../src/operator/controllers/identity-realm/identity-realm.ts';
import { syncRealm } from '../../../src/operator/controllers/identity-realm/realm-sync.ts';
import { openRecord } from '../../../src/operator/keycloak/collections/record.ts';
import { keycloakWorld, realmResource, statusOf } from '../controllers/keycloak-world.ts';
import { fakeKeycloakAdmin } from './fake-keycloak-admin.ts';

type ClientPolicies = NonNullable<IdentityRealm['spec']['clientPolicies']>;
const resource = (clientPolicies?: ClientPolicies): IdentityRealm => ({
  apiVersion: 'realmforge.dev/v1',
  kind: 'IdentityRealm',
  metadata: { name: 'apps', namespace: 'team' },
  spec: { serverRef: { name: 'kc' }, ...(clientPolicies ? { clientPolicies } : {}) },
});
const pkce = {
  name: 'pkce',
  executors: [{ executor: 'pkce-enforcer', configuration: { 'auto-configure': true } }],
};
const rotation = {
  name: 'rotation',
  executors: [{ executor: 'secret-rotation', configuration: { 'expiration-period': 86400 } }],
};
const publicPkce = {
  name: 'public-pkce',
  conditions: [{ condition: 'client-access-type', configuration: { type: ['public'] } }],
  profiles: ['pkce'],
};
const both: ClientPolicies = { profiles: [pkce, rotation], policies: [publicPkce] };

test('client policies: created, steady, reverted, hand-made and global kept, a dropped profile deleted after its policy', async () => {
  const kc = fakeKeycloakAdmin();
  const created = await syncRealm(kc.admin, resource(both), {});
  // The create call carried them (realm-create-sections.ts): the realm was never live without them.
  assert.equal(created.writes, ['create realm']);
  assert.equal(kc.writes(), ['POST ']);
  const realm = kc.realms.get('apps') as Record<string, any>;
  assert.equal(
    [...realm.clientProfiles, ...realm.clientPolicies].map((p: { name: string }) => p.name),
    ['pkce', 'rotation', 'public-pkce'],
  );
  realm.clientProfiles.push({ name: 'by-hand', executors: [] });
  realm.clientPolicies.push({
    name: 'hand-policy',
    enabled: true,
    conditions: [],
    profiles: ['fapi-1-baseline'],
  });
  kc.reset();
  assert.equal((await syncRealm(kc.admin, resource(both), {})).writes, [], 'steady');
  assert.equal(kc.writes(), []);
  realm.clientPolicies[0].enabled = false;
  assert.equal((await syncRealm(kc.admin, resource(both), {})).writes, ['update client policy public-pkce']);
  assert.is(realm.clientPolicies[0].enabled, true, 'reverted');
  // pkce dropped together with the policy applying it: the policy goes first, then the profile.
  const fewer = await syncRealm(kc.admin, resource({ profiles: [rotation] }), {});
  assert.equal(
    fewer.writes.filter((w) => w.includes('client p')),
    ['delete client policy public-pkce', 'delete client profile pkce'],
  );
  assert.equal(
    realm.clientProfiles.map((p: { name: string }) => p.name),
    ['rotation', 'by-hand'],
  );
  assert.equal(
    realm.clientPolicies.map((p: { name: string }) => p.name),
    ['hand-policy'],
  );
  assert.equal((await syncRealm(kc.admin, resource({ profiles: [rotation] }), {})).writes, []);
  const none = await syncRealm(kc.admin, resource(), {});
  assert.equal(
    none.writes.filter((w) => w.includes('client p')),
    ['delete client profile rotation'],
  );
  assert.equal(
    realm.clientProfiles.map((p: { name: string }) => p.name),
    ['by-hand'],
  );
  kc.reset();
  await syncRealm(kc.admin, resource(), {});
  assert.not.ok(
    kc.calls.some((c) => c.includes('client-policies')),
    'nothing declared nor recorded: no read',
  );
});

test('a profile dropped while its write fails stays recorded, and the next reconcile deletes it', async () => {
  const kc = fakeKeycloakAdmin();
  await syncRealm(kc.admin, resource({ profiles: [pkce, rotation] }), {});
  const realm = kc.realms.get('apps') as Record<string, any>;
  const profiles = () => realm.clientProfiles.map((p: { name: string }) => p.name);
  kc.failNext('PUT /apps/client-policies/profiles');
  const failed = await syncRealm(kc.admin, resource({ profiles: [rotation] }), {}).then(
    () => undefined,
    (e: Error) => e,
  );
  assert.match(String(failed?.message), 'HTTP 500');
  assert.equal(profiles(), ['pkce', 'rotation']);
  assert.is(
    openRecord(realm).attributes['realmforge.dev/client-profiles'],
    'pkce,rotation',
    'pkce is still recorded as ours',
  );
  const retried = await syncRealm(kc.admin, resource({ profiles: [rotation] }), {});
  assert.equal(retried.writes, ['delete client profile pkce', 'record realmforge.dev/client-profiles']);
  assert.equal(profiles(), ['rotation']);
  assert.is(openRecord(realm).attributes['realmforge.dev/client-profiles'], 'rotation');
  kc.reset();
  assert.equal((await syncRealm(kc.admin, resource({ profiles: [rotation] }), {})).writes, [], 'steady');
});

test('a profile named like a global one is refused naming the field; nothing written to client policies', async () => {
  const kc = fakeKeycloakAdmin();
  const error = await syncRealm(kc.admin, resource({ profiles: [{ name: 'fapi-1-baseline' }] }), {}).then(
    () => undefined,
    (e: Error) => e,
  );
  assert.match(
    String(error?.message),
    /spec\.clientPolicies\.profiles\[fapi-1-baseline\]: .* global profiles/,
  );
  assert.not.ok(kc.writes().some((w) => w.includes('client-policies')));
});

test('an executor or condition the server lacks is Failed/InvalidSpec naming it, before anything is written', async () => {
  const spec = {
    clientPolicies: {
      profiles: [{ name: 'p', executors: [{ executor: 'no-such-executor' }] }],
      policies: [{ name: 'q', conditions: [{ condition: 'no-such-condition' }], profiles: ['p'] }],
    },
  };
  const world = keycloakWorld([realmResource('apps', 'identity', spec)]);
  const outcome = await identityRealmController(world.deps)('identity/apps');
  assert.is(outcome.outcome?.reason, 'InvalidSpec');
  const status = statusOf(world, 'IdentityRealm', 'identity', 'apps');
  assert.is(status.phase, 'Failed');
  assert.match(
    status.message ?? '',
    'spec.clientPolicies.profiles[p].executors: Keycloak 26.7.3 has no executor "no-such-executor"',
  );
  assert.match(
    status.message ?? '',
    'spec.clientPolicies.policies[q].conditions: Keycloak 26.7.3 has no condition "no-such-condition"',
  );
  assert.equal(world.keycloak.writes(), []);
});

test.run();
