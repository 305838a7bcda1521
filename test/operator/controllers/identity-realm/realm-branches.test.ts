// The realm controller's remaining branches against the in-memory cluster and Keycloak: a server missing or not
// Ready, Keycloak unreachable or refusing the operator, a declared item Keycloak already has by hand, and a Secret
// without the key the spec names. Each says so on status and writes nothing it should not.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { RealmforgeError } from '../../../../src/core/errors.ts';
import { identityRealmController } from '../../../../src/operator/controllers/identity-realm/identity-realm.ts';
import {
  keycloakWorld,
  readyServer,
  realmResource,
  rejects,
  statusOf,
  type World,
} from '../keycloak-world.ts';

const reconcile = (world: World, key: string) => identityRealmController(world.deps)(key);

test('no IdentityServer: Pending/ServerNotReady saying it does not exist, nothing sent to Keycloak', async () => {
  const world = keycloakWorld([realmResource('apps', 'identity')]);
  world.kube.objects.delete('IdentityServer/identity/kc');
  const out = await reconcile(world, 'identity/apps');
  assert.equal(out.outcome, { phase: 'Pending', reason: 'ServerNotReady' });
  assert.match(
    statusOf(world, 'IdentityRealm', 'identity', 'apps').message ?? '',
    'identity/kc does not exist',
  );
  assert.equal(world.keycloak.calls, []);
  assert.is(out.requeueAfterMs, world.deps.driftIntervalMs, 'looked at again, the server is not watched');
});

test('a server not Ready: Pending/ServerNotReady naming its phase; Ready again creates the realm', async () => {
  const world = keycloakWorld([realmResource('apps', 'identity')], readyServer({}, 'Provisioning'));
  const out = await reconcile(world, 'identity/apps');
  assert.equal(out.outcome, { phase: 'Pending', reason: 'ServerNotReady' });
  assert.match(statusOf(world, 'IdentityRealm', 'identity', 'apps').message ?? '', 'phase Provisioning');
  assert.equal(world.keycloak.calls, []);
  world.kube.put(readyServer());
  assert.is((await reconcile(world, 'identity/apps')).outcome?.phase, 'Ready');
  assert.ok(world.keycloak.realms.has('apps'));
});

test('Keycloak unreachable: Provisioning/KeycloakUnavailable, and the error is raised so the queue backs off', async () => {
  const world = keycloakWorld([realmResource('apps', 'identity')]);
  world.keycloak.setDown(true);
  await rejects(reconcile(world, 'identity/apps'), /unreachable/);
  const status = statusOf(world, 'IdentityRealm', 'identity', 'apps');
  assert.is(status.phase, 'Provisioning');
  assert.is(status.reason, 'KeycloakUnavailable');
  world.keycloak.setDown(false);
  assert.is((await reconcile(world, 'identity/apps')).outcome?.phase, 'Ready');
});

test('Keycloak refusing the operator (401): Provisioning/KeycloakAuthFailed, raised for backoff', async () => {
  const world = keycloakWorld([realmResource('apps', 'identity')]);
  const refusing = {
    ...world.keycloak.admin,
    call: async () => {
      throw new RealmforgeError('auth', 'Keycloak GET /apps: HTTP 401 Unauthorized');
    },
  };
  const admin = {
    ...refusing,
    master: refusing,
    realmSecret: () => 'secret',
    statedVersion: () => undefined,
  };
  const deps = { ...world.deps, admins: { forServer: async () => admin } };
  await rejects(identityRealmController(deps)('identity/apps'), /401/);
  const status = statusOf(world, 'IdentityRealm', 'identity', 'apps');
  assert.is(status.reason, 'KeycloakAuthFailed');
  assert.not.ok(world.keycloak.realms.has('apps'));
});

test('a declared role Keycloak already has without the owner marker: Failed/NameConflict, the role untouched', async () => {
  const world = keycloakWorld([realmResource('apps', 'identity')]);
  await reconcile(world, 'identity/apps');
  await world.keycloak.admin.call('test', 'POST', '/apps/roles', { name: 'reader', description: 'by hand' });
  world.keycloak.reset();
  world.kube.put(realmResource('apps', 'identity', { roles: [{ name: 'reader', description: 'ours' }] }));
  const out = await reconcile(world, 'identity/apps');
  assert.equal(out.outcome, { phase: 'Failed', reason: 'NameConflict' });
  assert.match(statusOf(world, 'IdentityRealm', 'identity', 'apps').message ?? '', 'reader');
  const role = world.keycloak.realms.get('apps')?.roles.find((r) => r.name === 'reader');
  assert.is(role?.description, 'by hand');
  assert.equal(
    world.keycloak.writes().filter((w) => w.includes('roles')),
    [],
    'the hand-made role is not written',
  );
});

test('an SMTP password Secret without the named key is Failed/InvalidSpec naming the field, nothing created', async () => {
  const smtp = { host: 'mail', from: 'id@example.com', passwordSecretRef: { name: 'smtp', key: 'password' } };
  const world = keycloakWorld([
    realmResource('apps', 'identity', { smtp }),
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'smtp', namespace: 'identity' },
      data: { pass: Buffer.from('x').toString('base64') },
    },
  ]);
  const out = await reconcile(world, 'identity/apps');
  assert.equal(out.outcome, { phase: 'Failed', reason: 'InvalidSpec' });
  assert.match(
    statusOf(world, 'IdentityRealm', 'identity', 'apps').message ?? '',
    'spec.smtp.passwordSecretRef',
  );
  assert.not.ok(world.keycloak.realms.has('apps'));
  assert.equal(world.keycloak.writes(), []);
});

test.run();
