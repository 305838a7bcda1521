// The federation of an IdentityRealm when things go wrong or were made by others: the checks (LDAP test,
// discovery read) run when a provider changed or failed and otherwise at the check interval; a write that fails
// is sent again (a bind password's hash is recorded only once sent, a pruned provider leaves the ledger only
// once deleted); components of a declared name (Keycloak's default LDAP mappers, a hand-made provider) are
// taken over, since Keycloak keeps no owner mark on a component.

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRecord } from '../../../../src/operator/keycloak/collections/record.ts';
import {
  corp,
  directory,
  federatedWorld,
  ldap,
  provider,
  reconcile,
  secret,
  state,
} from './federation-world.ts';

test('a provider written in this reconcile is checked at once; one that failed is checked every resync', async () => {
  const world = federatedWorld();
  await reconcile(world);
  const live = world.kube.find('IdentityRealm', 'identity', 'corp') as Record<string, any>;
  world.kube.put({
    ...live,
    spec: { ...live.spec, userFederation: { ldap: [{ ...ldap, connectionUrl: 'ldap://moved:389' }] } },
  } as never);
  world.keycloak.reset();
  const moved = await reconcile(world);
  assert.is(moved.outcome?.reason, 'FederationUnavailable', 'the changed provider was tested');
  assert.equal(world.keycloak.writes(), [
    `PUT /corp/components/${provider(world)?.id}`,
    'POST /corp/testLDAPConnection',
  ]);
  world.keycloak.reset();
  await reconcile(world);
  assert.ok(world.keycloak.writes().includes('POST /corp/testLDAPConnection'), 'still failing: tested again');
  world.keycloak.world.directories.push({ ...directory, url: 'ldap://moved:389' });
  assert.is((await reconcile(world)).outcome?.reason, 'Ready', 'recovered without any change to the spec');
  world.keycloak.reset();
  await reconcile(world);
  assert.equal(world.keycloak.writes(), [], 'passing again: not tested until the interval');
});

test('a rotated bind password whose write fails is sent again: its hash is recorded only after the send', async () => {
  const world = federatedWorld();
  await reconcile(world);
  world.keycloak.world.directories[0] = { ...directory, password: 'new-pw' };
  world.kube.put(secret('ldap', 'new-pw'));
  world.keycloak.failNext('PUT /corp/components/');
  await reconcile(world).catch(() => undefined);
  assert.equal(provider(world)?.config.bindCredential, ['bind-pw'], 'the write failed');
  const hash = () =>
    openRecord(world.keycloak.realms.get('corp'))?.attributes['realmforge.dev/ldap-bind-hash.corp-ldap'];
  const oldHash = hash();
  assert.ok(oldHash, 'the old hash is still the recorded one');
  const retried = await reconcile(world);
  assert.ok(retried.outcome?.writes?.includes('update user federation provider corp-ldap'), 'sent again');
  assert.equal(provider(world)?.config.bindCredential, ['new-pw']);
  assert.is.not(hash(), oldHash, 'recorded once sent');
  assert.is(retried.outcome?.reason, 'Ready');
});

test('a provider removed from the spec whose delete fails stays in the ledger and is deleted next time', async () => {
  const world = federatedWorld();
  await reconcile(world);
  world.kube.put(corp({}));
  world.keycloak.failNext('DELETE /corp/components/');
  await reconcile(world).catch(() => undefined);
  assert.ok(provider(world), 'the delete failed');
  const out = await reconcile(world);
  assert.ok(out.outcome?.writes?.includes('delete user federation provider corp-ldap'), 'pruned on retry');
  assert.not.ok(provider(world));
});

test('a declared LDAP mapper named like a default one configures it; removed, it is deleted', async () => {
  const email = {
    name: 'email',
    type: 'user-attribute-ldap-mapper' as const,
    config: { 'ldap.attribute': 'userPrincipalName', 'user.model.attribute': 'email' },
  };
  const world = federatedWorld({ userFederation: { ldap: [{ ...ldap, mappers: [email] }] } });
  assert.is((await reconcile(world)).outcome?.reason, 'Ready');
  const under = () => state(world).components.filter((c) => c.parentId === provider(world)?.id);
  const named = under().filter((c) => c.name === 'email');
  assert.is(named.length, 1, 'the default mapper is configured, not duplicated');
  assert.equal(named[0]?.config['ldap.attribute'], ['userPrincipalName']);
  world.kube.put(corp({ userFederation: { ldap: [{ ...ldap, mappers: [] }] } }));
  const out = await reconcile(world);
  assert.ok(out.outcome?.writes?.includes('delete LDAP mapper (corp-ldap) email'), JSON.stringify(out));
  assert.ok(
    under().some((c) => c.name === 'first name'),
    'the default mappers never declared are left alone',
  );
});

test('an LDAP provider made by hand with a declared name is NameConflict, taken over only with spec.adoptExisting', async () => {
  const world = federatedWorld({});
  await reconcile(world);
  const realmId = world.keycloak.realms.get('corp')?.id;
  state(world).components.push({
    id: 'by-hand',
    name: 'corp-ldap',
    providerId: 'ldap',
    providerType: 'org.keycloak.storage.UserStorageProvider',
    parentId: realmId,
    config: { connectionUrl: ['ldap://old:389'] },
  });
  world.kube.put(corp({ userFederation: { ldap: [ldap] } }));
  const refused = await reconcile(world);
  assert.is(refused.outcome?.reason, 'NameConflict');
  assert.equal(provider(world)?.config.connectionUrl, ['ldap://old:389'], 'untouched');
  world.kube.put(corp({ userFederation: { ldap: [ldap] }, adoptExisting: true }));
  const out = await reconcile(world);
  assert.ok(out.outcome?.writes?.includes('update user federation provider corp-ldap'), 'taken over');
  assert.equal(provider(world)?.config.connectionUrl, ['ldap://ldap:389']);
});

test.run();
