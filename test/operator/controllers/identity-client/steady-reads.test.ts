// The steady state's cost in Keycloak calls (issue #16: <= 1 read per resource per drift interval, 0 writes): a
// resync of a Ready realm and of a Ready client with nothing changed sends exactly one read each (a service account
// with roles: one more, its mappings), and drift is still found and reverted by those reads.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { identityClientController } from '../../../../src/operator/controllers/identity-client/identity-client.ts';
import { identityRealmController } from '../../../../src/operator/controllers/identity-realm/identity-realm.ts';
import { secretValue } from '../../../../src/operator/runtime/read-secret.ts';
import { clientResource, keycloakWorld, realmResource, statusOf } from '../keycloak-world.ts';

async function readyWorld() {
  const world = keycloakWorld([
    realmResource('apps', 'identity', { clientAuthorizationGrants: ['team'], displayName: 'Apps' }),
    clientResource('web', 'team'),
  ]);
  await identityRealmController(world.deps)('identity/apps');
  await identityClientController(world.deps)('team/web');
  assert.is(statusOf(world, 'IdentityClient', 'team', 'web').phase, 'Ready');
  world.keycloak.reset();
  return world;
}

test('a steady client resync sends one read: the server info is kept across reconciles, not re-read', async () => {
  const world = await readyWorld();
  await identityClientController(world.deps)('team/web');
  world.clock.advance(60_000);
  await identityClientController(world.deps)('team/web');
  assert.equal(world.keycloak.calls, [
    'GET /apps/clients?clientId=web&max=2',
    'GET /apps/clients?clientId=web&max=2',
  ]);
});

test('a steady realm resync sends one read', async () => {
  const world = await readyWorld();
  await identityRealmController(world.deps)('identity/apps');
  assert.equal(world.keycloak.calls, ['GET /apps']);
});

test('drift is still found by that one read and reverted', async () => {
  const world = await readyWorld();
  const live = world.keycloak.realms.get('apps')?.clients.find((c) => c.clientId === 'web');
  if (!live) throw new Error('no client web');
  live.redirectUris = ['https://evil/*'];
  await identityClientController(world.deps)('team/web');
  assert.equal(world.keycloak.calls, [
    'GET /apps/clients?clientId=web&max=2',
    `PUT /apps/clients/${live.id}`,
  ]);
  const after = world.keycloak.realms.get('apps')?.clients.find((c) => c.clientId === 'web');
  assert.equal(after?.redirectUris, ['https://app/cb']);
});

test('a new client is created by one POST carrying its managed-fields record: no PUT right after it', async () => {
  const world = keycloakWorld([
    realmResource('apps', 'identity', { clientAuthorizationGrants: ['team'] }),
    clientResource('web', 'team', { roles: [{ name: 'viewer' }] }),
  ]);
  await identityRealmController(world.deps)('identity/apps');
  world.keycloak.reset();
  await identityClientController(world.deps)('team/web');
  assert.equal(
    world.keycloak.writes().filter((c) => c.includes('/clients')),
    ['POST /apps/clients', `POST /apps/clients/${world.keycloak.realms.get('apps')?.clients[0]?.id}/roles`],
  );
  world.keycloak.reset();
  await identityClientController(world.deps)('team/web');
  assert.equal(world.keycloak.writes(), [], 'and the next resync finds nothing to change');
});

/** The calls about the realm's clients (the server info, read once per server, aside). */
const clientCalls = (world: ReturnType<typeof keycloakWorld>) =>
  world.keycloak.calls.filter((c) => !c.includes('serverinfo'));

test('a new confidential client costs one POST: nothing looked up first (a new resource), its secret made by the operator, nothing read back', async () => {
  const world = keycloakWorld([
    realmResource('apps', 'identity', { clientAuthorizationGrants: ['team'] }),
    clientResource('web', 'team'),
  ]);
  await identityRealmController(world.deps)('identity/apps');
  world.keycloak.reset();
  await identityClientController(world.deps)('team/web');
  assert.equal(clientCalls(world), ['POST /apps/clients']);
  const live = world.keycloak.realms.get('apps')?.clients.find((c) => c.clientId === 'web');
  const status = statusOf(world, 'IdentityClient', 'team', 'web') as { phase?: string; clientUuid?: string };
  assert.is(status.phase, 'Ready');
  assert.is(status.clientUuid, live?.id, 'the id from the Location header');
  const secret = secretValue(world.kube.find('Secret', 'team', 'web-credentials'), 'client-secret');
  assert.ok(secret, 'a secret was made');
  assert.is(secret, live?.secret, 'the Secret holds what Keycloak has');
  world.keycloak.reset();
  await identityClientController(world.deps)('team/web');
  assert.equal(world.keycloak.writes(), [], 'and the next resync finds nothing to change');
});

test('a create answered without a Location header (a proxy dropped it) is read back instead', async () => {
  const world = keycloakWorld([
    realmResource('apps', 'identity', { clientAuthorizationGrants: ['team'] }),
    clientResource('web', 'team'),
  ]);
  await identityRealmController(world.deps)('identity/apps');
  const call = world.keycloak.admin.call.bind(world.keycloak.admin);
  world.keycloak.admin.call = (async (...args: Parameters<typeof call>) => ({
    ...(await call(...args)),
    location: undefined,
  })) as typeof call;
  world.keycloak.reset();
  await identityClientController(world.deps)('team/web');
  assert.equal(clientCalls(world), ['POST /apps/clients', 'GET /apps/clients?clientId=web&max=2']);
  const live = world.keycloak.realms.get('apps')?.clients.find((c) => c.clientId === 'web');
  assert.is(
    (statusOf(world, 'IdentityClient', 'team', 'web') as { clientUuid?: string }).clientUuid,
    live?.id,
  );
});

test('a client created before its status was written (the operator stopped): the POST is refused, the client read and carried on with', async () => {
  const world = await readyWorld();
  const web = world.kube.find('IdentityClient', 'team', 'web');
  if (!web) throw new Error('no IdentityClient web');
  const before = world.keycloak.realms.get('apps')?.clients.find((c) => c.clientId === 'web');
  web.status = undefined;
  await identityClientController(world.deps)('team/web');
  assert.equal(clientCalls(world), ['POST /apps/clients', 'GET /apps/clients?clientId=web&max=2']);
  const clients = world.keycloak.realms.get('apps')?.clients.filter((c) => c.clientId === 'web') ?? [];
  assert.is(clients.length, 1, 'no second client');
  assert.is(clients[0]?.secret, before?.secret, 'its secret kept');
  const status = statusOf(world, 'IdentityClient', 'team', 'web') as { phase?: string; clientUuid?: string };
  assert.is(status.phase, 'Ready');
  assert.is(status.clientUuid, before?.id);
  world.keycloak.reset();
  await identityClientController(world.deps)('team/web');
  assert.equal(world.keycloak.calls, ['GET /apps/clients?clientId=web&max=2'], 'then a resync reads once');
});

test('a new client whose realm is gone from Keycloak: the refused create names the realm, nothing is created', async () => {
  const world = keycloakWorld([
    realmResource('apps', 'identity', { clientAuthorizationGrants: ['team'] }),
    clientResource('web', 'team'),
  ]);
  await identityRealmController(world.deps)('identity/apps');
  world.keycloak.realms.delete('apps');
  await identityClientController(world.deps)('team/web').catch(() => undefined);
  const status = statusOf(world, 'IdentityClient', 'team', 'web');
  assert.is(status.phase, 'Provisioning');
  assert.match(status.message ?? '', 'realm apps does not exist in Keycloak');
  assert.is(world.keycloak.realms.size, 0);
});

/** A realm with role reader and a client whose service account holds it. */
async function serviceAccountWorld() {
  const world = keycloakWorld([
    realmResource('apps', 'identity', { clientAuthorizationGrants: ['team'], roles: [{ name: 'reader' }] }),
    clientResource('robot', 'team', { serviceAccount: { enabled: true, realmRoles: ['reader'] } }),
  ]);
  await identityRealmController(world.deps)('identity/apps');
  await identityClientController(world.deps)('team/robot');
  assert.is(statusOf(world, 'IdentityClient', 'team', 'robot').phase, 'Ready');
  world.keycloak.reset();
  const realm = world.keycloak.realms.get('apps');
  const uuid = realm?.clients.find((c) => c.clientId === 'robot')?.id;
  const user = realm?.users.find((u) => u.client === uuid);
  if (!user) throw new Error('no service-account user');
  return { world, user };
}

test('a steady service-account resync reads the client and the role mappings, not the service-account user', async () => {
  const { world, user } = await serviceAccountWorld();
  await identityClientController(world.deps)('team/robot');
  assert.equal(world.keycloak.calls, [
    'GET /apps/clients?clientId=robot&max=2',
    `GET /apps/users/${user.id}/role-mappings`,
  ]);
});

test('a service-account role removed by hand is still restored from the mappings read', async () => {
  const { world, user } = await serviceAccountWorld();
  user.realmRoles = user.realmRoles.filter((r: string) => r !== 'reader');
  await identityClientController(world.deps)('team/robot');
  assert.ok(user.realmRoles.includes('reader'));
  assert.is(world.keycloak.calls.filter((c) => c.includes('service-account-user')).length, 0);
});

test('a service-account user recreated in Keycloak (new id) is found again: the stale id answers 404', async () => {
  const { world, user } = await serviceAccountWorld();
  const stale = user.id;
  user.id = 'recreated-user';
  user.realmRoles = [];
  await identityClientController(world.deps)('team/robot');
  assert.ok(user.realmRoles.includes('reader'), 'the role is granted to the new user');
  assert.equal(world.keycloak.calls.slice(0, 4), [
    'GET /apps/clients?clientId=robot&max=2',
    `GET /apps/users/${stale}/role-mappings`,
    `GET /apps/clients/${user.client}/service-account-user`,
    'GET /apps/users/recreated-user/role-mappings',
  ]);
});

test.run();
