// Identity providers and LDAP user federation of an IdentityRealm against the fake Keycloak: created with an
// owner marker and secrets from Secrets (compared by hash), a steady resync writes nothing, hand edits are
// reverted, removal deletes (with the users Keycloak imported), and the status carries Keycloak's own LDAP test,
// a requested sync's counts, and the identity provider's discovery read (FederationUnavailable when broken).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { KubeObject } from '../../../../src/operator/compile/kube-object.ts';
import { recorded } from '../../keycloak/recorded.ts';
import { keycloakWorld, statusOf } from '../keycloak-world.ts';
import { corp, federatedWorld, idp, provider, reconcile, secret, state } from './federation-world.ts';

test('identity providers and LDAP are created with their mappers and secrets; a steady resync only reads', async () => {
  const world = federatedWorld();
  const first = await reconcile(world);
  assert.is(first.outcome?.reason, 'Ready', statusOf(world, 'IdentityRealm', 'identity', 'corp').message);
  // The identity provider and its mapper came with the create call; LDAP followed in its own calls (its default
  // mappers are Keycloak's set-up of a provider it creates); then both were checked.
  assert.equal(
    world.keycloak.calls.map((c) => c.replace(/\?.*/, '')),
    [
      'GET /corp',
      'POST ',
      'GET /corp',
      'GET /corp/components',
      'POST /corp/components',
      'GET /corp/components',
      'GET /corp/components',
      'POST /corp/components',
      'POST /corp/testLDAPConnection',
      'POST /corp/identity-provider/import-config',
    ],
  );
  const s = state(world);
  assert.is(s.identityProviders[0]?.config.clientSecret, 'idp-secret', 'the real secret is sent');
  assert.is(s.identityProviders[0]?.config['realmforge.dev/owner'], undefined, 'no mark of its own');
  assert.equal([...recorded(world.keycloak.realms.get('corp'), 'identityProviders')], ['upstream']);
  assert.equal(
    [...recorded(world.keycloak.realms.get('corp'), 'identityProviderMappers')],
    ['upstream/dept'],
  );
  assert.equal(
    s.idpMappers.map((m) => m.name),
    ['dept'],
  );
  assert.equal(provider(world)?.config.bindCredential, ['bind-pw']);
  assert.equal(provider(world)?.config.searchScope, ['1']);
  const mappers = s.components.filter((c) => c.parentId === provider(world)?.id).map((c) => c.name);
  assert.ok(mappers.includes('groups') && mappers.includes('email'), 'ours beside the default mappers');
  const checkedAt = new Date(world.clock.now()).toISOString();
  const status = () => world.kube.find('IdentityRealm', 'identity', 'corp')?.status as Record<string, any>;
  assert.equal(status().federation, {
    ldap: [{ name: 'corp-ldap', connected: true, checkedAt }],
    identityProviders: [{ alias: 'upstream', reachable: true, checkedAt }],
  });
  world.keycloak.reset();
  const steady = await reconcile(world);
  assert.equal(steady.outcome?.writes, []);
  assert.equal(world.keycloak.calls, [
    'GET /corp',
    'GET /corp/identity-provider/instances',
    'GET /corp/identity-provider/instances/upstream/mappers',
    `GET /corp/components?parent=${s.components[0]?.parentId}&type=org.keycloak.storage.UserStorageProvider`,
    `GET /corp/components?parent=${provider(world)?.id}&type=org.keycloak.storage.ldap.mappers.LDAPStorageMapper`,
  ]);
  assert.equal(status().federation.ldap[0].checkedAt, checkedAt, 'the last check stands');
  // Once the check interval (30 minutes) has passed, the checks run again.
  world.clock.advance(30 * 60_000);
  world.keycloak.reset();
  await reconcile(world);
  assert.equal(world.keycloak.writes(), [
    'POST /corp/testLDAPConnection',
    'POST /corp/identity-provider/import-config',
  ]);
  assert.is(status().federation.ldap[0].checkedAt, new Date(world.clock.now()).toISOString());
});

test('a wrong bind password is FederationUnavailable with LDAP error; fixing the Secret recovers', async () => {
  const world = federatedWorld();
  await reconcile(world);
  world.kube.put(secret('ldap', 'wrong'));
  const broken = await reconcile(world);
  assert.is(broken.outcome?.reason, 'FederationUnavailable');
  assert.ok(broken.outcome?.writes?.includes('update user federation provider corp-ldap'), 'rotated: resent');
  const status = statusOf(world, 'IdentityRealm', 'identity', 'corp');
  assert.is(status.phase, 'Provisioning');
  assert.match(
    status.message ?? '',
    'LDAP provider corp-ldap: Keycloak POST /corp/testLDAPConnection: HTTP 400',
  );
  assert.match(status.message ?? '', 'Invalid Credentials');
  assert.is(broken.requeueAfterMs, 300_000, 'looked at again within one drift interval, no backoff');
  world.kube.put(secret('ldap', 'bind-pw'));
  assert.is((await reconcile(world)).outcome?.reason, 'Ready');
  assert.equal(provider(world)?.config.bindCredential, ['bind-pw']);
});

test('hand edits are reverted; hand-made providers and mappers are left alone', async () => {
  const world = federatedWorld();
  await reconcile(world);
  const s = state(world);
  (provider(world) as Record<string, any>).config.usersDn = ['ou=elsewhere'];
  (s.identityProviders[0] as Record<string, any>).enabled = false;
  s.identityProviders.push({ alias: 'by-hand', providerId: 'github', config: {} });
  s.idpMappers.push({ id: 'm1', name: 'by-hand', identityProviderAlias: 'upstream', config: {} });
  const out = await reconcile(world);
  assert.equal(out.outcome?.writes, [
    'update identity provider upstream',
    'update user federation provider corp-ldap',
  ]);
  assert.equal(provider(world)?.config.usersDn, ['ou=people,dc=corp']);
  assert.is(provider(world)?.config.bindCredential?.[0], 'bind-pw', 'the mask sent back keeps the password');
  assert.is(s.identityProviders[0]?.enabled, true);
  assert.is(s.identityProviders[0]?.config.clientSecret, 'idp-secret');
  assert.ok(s.identityProviders.some((i) => i.alias === 'by-hand'));
});

test('a requested sync runs once per annotation value; its counts are on status', async () => {
  const world = federatedWorld();
  await reconcile(world);
  const spec = (world.kube.find('IdentityRealm', 'identity', 'corp') as Record<string, any>).spec;
  const annotate = (value: string) => {
    const live = world.kube.find('IdentityRealm', 'identity', 'corp') as KubeObject;
    world.kube.put({
      ...live,
      metadata: { ...live.metadata, annotations: { 'realmforge.dev/federation-sync': value } },
    });
  };
  annotate('full');
  await reconcile(world);
  const lastSync = () =>
    (world.kube.find('IdentityRealm', 'identity', 'corp')?.status as Record<string, any>)?.federation
      ?.ldap?.[0]?.lastSync;
  assert.equal(lastSync(), {
    request: 'full',
    mode: 'full',
    added: 2,
    updated: 0,
    removed: 0,
    failed: 0,
    status: '2 imported users',
  });
  assert.equal(
    state(world).users.map((u) => u.username),
    ['ann', 'bob'],
  );
  world.keycloak.reset();
  const again = await reconcile(world);
  assert.not.ok(
    world.keycloak.calls.some((c) => c.includes('/sync?')),
    'the same request is not run again',
  );
  assert.equal(again.outcome?.writes, [], 'lastSync written by Keycloak is not drift');
  world.keycloak.world.directories[0]?.users.push('cat');
  annotate('changed@2');
  await reconcile(world);
  assert.is(lastSync().request, 'changed@2');
  assert.is(lastSync().added, 1);
  assert.ok(spec);
});

test('removed from the spec: providers, their mappers and the imported users are deleted', async () => {
  const world = federatedWorld();
  await reconcile(world);
  const id = provider(world)?.id;
  state(world).users.push({ username: 'ann', federationLink: id });
  world.kube.put(corp({}));
  const out = await reconcile(world);
  assert.equal(out.outcome?.writes?.sort(), [
    'delete identity provider upstream',
    'delete user federation provider corp-ldap',
    'update realm (attributes/realmforge.dev/ldap-bind-hash.corp-ldap, attributes/realmforge.dev/ldap-mappers, attributes/realmforge.dev/ldap-providers, attributes/realmforge.dev/managed-identity-provider-mappers, attributes/realmforge.dev/managed-identity-providers, realmforge.dev/managed-fields)',
  ]);
  const s = state(world);
  assert.equal([s.identityProviders, s.idpMappers, s.components, s.users], [[], [], [], []]);
  const status = world.kube.find('IdentityRealm', 'identity', 'corp')?.status as Record<string, unknown>;
  assert.is(status.federation, undefined);
  world.keycloak.reset();
  await reconcile(world);
  assert.equal(world.keycloak.calls, ['GET /corp'], 'nothing declared now or before: no federation reads');
});

test('an unreadable discovery document is FederationUnavailable naming the identity provider', async () => {
  const world = federatedWorld({
    identityProviders: [{ ...idp, config: { ...idp.config, issuer: 'http://gone' } }],
  });
  const out = await reconcile(world);
  assert.is(out.outcome?.reason, 'FederationUnavailable');
  assert.match(
    statusOf(world, 'IdentityRealm', 'identity', 'corp').message ?? '',
    'identity provider upstream: ',
  );
  assert.match(
    statusOf(world, 'IdentityRealm', 'identity', 'corp').message ?? '',
    'Could not fetch http://gone',
  );
});

test('a secret inline in an identity provider config is refused before anything is written', async () => {
  const world = federatedWorld({
    identityProviders: [{ ...idp, config: { ...idp.config, clientSecret: 'inline' } }],
  });
  const out = await reconcile(world);
  assert.is(out.outcome?.reason, 'InvalidSpec');
  assert.match(
    statusOf(world, 'IdentityRealm', 'identity', 'corp').message ?? '',
    'spec.identityProviders[0] (upstream): config.clientSecret is refused inline',
  );
  assert.equal(world.keycloak.writes(), []);
});

test('signingKeyRef: the key from the Secret is sent; a rotated Secret or a hand edit is corrected', async () => {
  const signed = { ...idp, signingKeyRef: { name: 'signing', key: 'value' } };
  const world = keycloakWorld([corp({ identityProviders: [signed] }), secret('idp', 'idp-secret')]);
  world.keycloak.world.fetchable.add('http://up/realms/up/.well-known/openid-configuration');
  world.kube.put(secret('signing', 'KEY-1\n'));
  assert.is((await reconcile(world)).outcome?.reason, 'Ready');
  const live = () => state(world).identityProviders[0]?.config as Record<string, string>;
  assert.equal(
    [live().publicKeySignatureVerifier, live().validateSignature, live().useJwksUrl],
    ['KEY-1', 'true', 'false'],
  );
  world.keycloak.reset();
  assert.equal((await reconcile(world)).outcome?.writes, [], 'Keycloak echoes the key: no drift');
  world.kube.put(secret('signing', 'KEY-2'));
  assert.equal((await reconcile(world)).outcome?.writes, ['update identity provider upstream']);
  assert.is(live().publicKeySignatureVerifier, 'KEY-2');
  live().publicKeySignatureVerifier = 'BY-HAND';
  assert.equal((await reconcile(world)).outcome?.writes, ['update identity provider upstream']);
  assert.is(live().publicKeySignatureVerifier, 'KEY-2');
  assert.is(live().clientSecret, 'idp-secret', 'the client secret is kept');
});

test('a missing signing key Secret writes nothing and names the field', async () => {
  const signed = { ...idp, signingKeyRef: { name: 'absent', key: 'value' } };
  const world = keycloakWorld([corp({ identityProviders: [signed] }), secret('idp', 'idp-secret')]);
  await reconcile(world);
  const status = statusOf(world, 'IdentityRealm', 'identity', 'corp');
  assert.match(status.message ?? '', 'spec.identityProviders[0].signingKeyRef');
  assert.equal(world.keycloak.writes(), []);
});

test.run();
