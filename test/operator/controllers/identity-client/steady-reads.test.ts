// The steady state's cost in Keycloak calls (issue #16: <= 1 read per resource per drift interval, 0 writes): a
// resync of a Ready realm and of a Ready client with nothing changed sends exactly one read each, and drift is still
// found and reverted by that one read.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { identityClientController } from '../../../../src/operator/controllers/identity-client/identity-client.ts';
import { identityRealmController } from '../../../../src/operator/controllers/identity-realm/identity-realm.ts';
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

test.run();
