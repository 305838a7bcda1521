// The client controller's remaining branches against the in-memory cluster and Keycloak: the happy path and its
// steady state, a realm missing or not Ready, a client ID or credentials Secret that belongs to someone else, and
// Keycloak unreachable. Each says so on status and writes nothing it should not.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { identityClientController } from '../../../../src/operator/controllers/identity-client/identity-client.ts';
import { identityRealmController } from '../../../../src/operator/controllers/identity-realm/identity-realm.ts';
import {
  clientResource,
  keycloakWorld,
  realmResource,
  rejects,
  statusOf,
  type World,
} from '../keycloak-world.ts';

const reconcile = (world: World, key: string) => identityClientController(world.deps)(key);
const clientsIn = (world: World) => world.keycloak.realms.get('apps')?.clients ?? [];
const text = (data: Record<string, string> | undefined, key: string) =>
  Buffer.from(data?.[key] ?? '', 'base64').toString('utf8');

async function withRealm(clients: ReturnType<typeof clientResource>[]) {
  const world = keycloakWorld([
    realmResource('apps', 'identity', { clientAuthorizationGrants: ['team'] }),
    ...clients,
  ]);
  await identityRealmController(world.deps)('identity/apps');
  world.keycloak.reset();
  return world;
}

test('a client becomes Ready with a credentials Secret that holds its secret; a resync writes nothing', async () => {
  const world = await withRealm([clientResource('web', 'team')]);
  const out = await reconcile(world, 'team/web');
  assert.is(out.outcome?.phase, 'Ready');
  const [live] = clientsIn(world);
  assert.is(live?.clientId, 'web');
  const secret = world.kube.find('Secret', 'team', 'web-credentials');
  const data = secret?.data as Record<string, string> | undefined;
  assert.is(text(data, 'client-id'), 'web');
  assert.ok(text(data, 'client-secret').length > 0, 'the Secret holds the client secret');
  assert.is(text(data, 'client-secret'), live?.secret, 'the secret Keycloak checks');
  world.keycloak.reset();
  world.kube.writes.length = 0;
  const again = await reconcile(world, 'team/web');
  assert.equal(again.outcome?.writes, []);
  assert.equal(world.keycloak.writes(), []);
  assert.equal(world.kube.writes, []);
});

test('no IdentityRealm: Pending/RealmNotReady saying it does not exist, nothing sent to Keycloak', async () => {
  const world = keycloakWorld([clientResource('web', 'team')]);
  const out = await reconcile(world, 'team/web');
  assert.equal(out.outcome, { phase: 'Pending', reason: 'RealmNotReady' });
  assert.match(
    statusOf(world, 'IdentityClient', 'team', 'web').message ?? '',
    'identity/apps does not exist',
  );
  assert.equal(world.keycloak.calls, []);
});

test('a realm not Ready: Pending/RealmNotReady naming its phase; Ready again creates the client', async () => {
  const world = await withRealm([clientResource('web', 'team')]);
  const realm = world.kube.find('IdentityRealm', 'identity', 'apps');
  if (realm) realm.status = { ...(realm.status as object), phase: 'Provisioning' };
  const out = await reconcile(world, 'team/web');
  assert.equal(out.outcome, { phase: 'Pending', reason: 'RealmNotReady' });
  assert.match(statusOf(world, 'IdentityClient', 'team', 'web').message ?? '', 'phase Provisioning');
  assert.equal(world.keycloak.writes(), []);
  await identityRealmController(world.deps)('identity/apps');
  assert.is((await reconcile(world, 'team/web')).outcome?.phase, 'Ready');
});

test('a client ID taken by a client made by hand: Failed/ClientIdConflict, the client and its secret untouched', async () => {
  const world = await withRealm([clientResource('web', 'team')]);
  await world.keycloak.admin.call('test', 'POST', '/apps/clients', { clientId: 'web', secret: 'theirs' });
  world.keycloak.reset();
  const out = await reconcile(world, 'team/web');
  assert.equal(out.outcome, { phase: 'Failed', reason: 'ClientIdConflict' });
  // A new resource creates without looking first: Keycloak refuses the create (409), the client is then read.
  assert.equal(
    world.keycloak.calls.filter((c) => c.includes('/clients')),
    ['POST /apps/clients', 'GET /apps/clients?clientId=web&max=2'],
  );
  assert.equal(clientsIn(world).length, 1, 'no second client');
  assert.is(clientsIn(world)[0]?.secret, 'theirs');
  assert.equal(clientsIn(world)[0]?.attributes, {}, 'their client is not marked or changed');
  assert.is(
    world.kube.find('Secret', 'team', 'web-credentials'),
    undefined,
    'no credentials for their client',
  );
});

test('a credentials Secret of the same name that is not ours: Failed/SecretConflict, nothing created anywhere', async () => {
  const foreign = {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'web-credentials', namespace: 'team' },
    data: { token: Buffer.from('someone else').toString('base64') },
  };
  const world = await withRealm([clientResource('web', 'team'), foreign]);
  const out = await reconcile(world, 'team/web');
  assert.equal(out.outcome, { phase: 'Failed', reason: 'SecretConflict' });
  assert.match(statusOf(world, 'IdentityClient', 'team', 'web').message ?? '', 'web-credentials');
  assert.equal(clientsIn(world), [], 'nothing created in Keycloak');
  assert.equal(world.kube.find('Secret', 'team', 'web-credentials')?.data, foreign.data);
});

test('Keycloak unreachable: Provisioning/KeycloakUnavailable, raised for backoff; back, the client is created', async () => {
  const world = await withRealm([clientResource('web', 'team')]);
  world.keycloak.setDown(true);
  await rejects(reconcile(world, 'team/web'), /unreachable/);
  const status = statusOf(world, 'IdentityClient', 'team', 'web');
  assert.equal([status.phase, status.reason], ['Provisioning', 'KeycloakUnavailable']);
  world.keycloak.setDown(false);
  assert.is((await reconcile(world, 'team/web')).outcome?.phase, 'Ready');
  assert.is(clientsIn(world).length, 1);
});

test.run();
