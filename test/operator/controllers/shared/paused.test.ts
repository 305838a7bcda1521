// The pause annotation: a paused realm or client gets no Keycloak write (drift kept, deletion held) and says so on
// status with phase and Ready as last verified; removing the annotation lets the next reconcile revert the drift.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { KubeObject } from '../../../../src/operator/compile/kube-object.ts';
import { identityClientDefinition } from '../../../../src/operator/controllers/identity-client/controller.ts';
import { identityRealmDefinition } from '../../../../src/operator/controllers/identity-realm/controller.ts';
import { identityServerDefinition } from '../../../../src/operator/controllers/identity-server/controller.ts';
import { pausedAnnotation } from '../../../../src/operator/controllers/shared/paused.ts';
import { fakeKube } from '../fake-kube.ts';
import { cluster, dbSecret, idServer, deps as serverDeps } from '../identity-server/server-fixtures.ts';
import { clientResource, keycloakWorld, markDeleted, realmResource, type World } from '../keycloak-world.ts';

type Conditions = { conditions?: { type: string; status: string; reason: string }[] };

function annotate(world: World, kind: string, name: string, value: string | undefined) {
  const o = world.kube.find(kind, 'identity', name) as KubeObject;
  const annotations = { ...o.metadata.annotations, [pausedAnnotation]: value };
  if (value === undefined) delete annotations[pausedAnnotation];
  world.kube.put({ ...o, metadata: { ...o.metadata, annotations } as KubeObject['metadata'] });
}

const statusOf = (world: World, kind: string, name: string) =>
  (world.kube.find(kind, 'identity', name)?.status ?? {}) as Record<string, unknown> & Conditions;
const condition = (world: World, kind: string, name: string, type: string) =>
  statusOf(world, kind, name).conditions?.find((c) => c.type === type);

test('a paused realm keeps a hand edit and its Ready; unpaused, the edit is reverted', async () => {
  const world = keycloakWorld([realmResource('apps', 'identity', { displayName: 'Apps' })]);
  const reconcile = identityRealmDefinition(world.deps).reconcile;
  assert.is((await reconcile('identity/apps')).outcome?.phase, 'Ready');
  const edit = () => {
    const live = world.keycloak.realms.get('apps');
    if (live) live.displayName = 'Edited by hand';
    world.keycloak.reset();
  };
  // Unpaused, the same edit is reverted: the reconcile below could write.
  edit();
  await reconcile('identity/apps');
  assert.is(world.keycloak.realms.get('apps')?.displayName, 'Apps');

  annotate(world, 'IdentityRealm', 'apps', 'true');
  edit();
  const paused = await reconcile('identity/apps');
  assert.is(paused.outcome?.reason, 'ReconcilePaused');
  assert.is(paused.requeueAfterMs, world.deps.driftIntervalMs, 'still looked at every drift interval');
  assert.equal(world.keycloak.writes(), []);
  assert.equal(world.keycloak.calls, [], 'not even read');
  assert.is(world.keycloak.realms.get('apps')?.displayName, 'Edited by hand');
  assert.is(statusOf(world, 'IdentityRealm', 'apps').phase, 'Ready');
  assert.is(statusOf(world, 'IdentityRealm', 'apps').reason, 'ReconcilePaused');
  assert.is(condition(world, 'IdentityRealm', 'apps', 'Synced')?.status, 'False');
  assert.is(condition(world, 'IdentityRealm', 'apps', 'Synced')?.reason, 'ReconcilePaused');
  assert.is(condition(world, 'IdentityRealm', 'apps', 'Ready')?.status, 'True');

  annotate(world, 'IdentityRealm', 'apps', 'false');
  await reconcile('identity/apps');
  assert.is(world.keycloak.realms.get('apps')?.displayName, 'Apps');
  assert.is(condition(world, 'IdentityRealm', 'apps', 'Synced')?.reason, 'ReconcileSuccess');
});

test('deleting a paused client or realm waits: no Keycloak delete, the finalizer stays until unpaused', async () => {
  const world = keycloakWorld([
    realmResource('apps', 'identity', { clientAuthorizationGrants: ['identity'] }),
    clientResource('web', 'identity'),
  ]);
  const realm = identityRealmDefinition(world.deps).reconcile;
  const client = identityClientDefinition(world.deps).reconcile;
  await realm('identity/apps');
  await client('identity/web');
  const clients = () =>
    ((world.keycloak.realms.get('apps') as { clients?: { clientId?: string }[] }).clients ?? []).map(
      (c) => c.clientId,
    );
  assert.ok(clients().includes('web'));
  for (const [kind, name] of [
    ['IdentityClient', 'web'],
    ['IdentityRealm', 'apps'],
  ]) {
    annotate(world, kind, name, 'true');
    markDeleted(world, kind, 'identity', name);
  }
  world.keycloak.reset();
  await client('identity/web');
  await realm('identity/apps');
  assert.equal(world.keycloak.calls, []);
  assert.ok(world.kube.find('IdentityClient', 'identity', 'web'), 'the client waits');
  assert.ok(world.kube.find('IdentityRealm', 'identity', 'apps'), 'the realm waits');
  assert.ok(clients().includes('web'));

  annotate(world, 'IdentityRealm', 'apps', undefined);
  await realm('identity/apps');
  assert.not.ok(world.keycloak.realms.has('apps'), 'unpaused, the realm is deleted');
  assert.is(world.kube.find('IdentityRealm', 'identity', 'apps'), undefined);
  assert.ok(world.kube.find('IdentityClient', 'identity', 'web'), 'the still-paused client waits');
});

test('a paused IdentityServer applies nothing to Kubernetes; unpaused it does', async () => {
  const kube = fakeKube([idServer({}, { [pausedAnnotation]: 'true' }), dbSecret, cluster]);
  const reconcile = identityServerDefinition(serverDeps(kube, 'http://127.0.0.1:1')).reconcile;
  assert.is((await reconcile('identity/kc')).outcome?.reason, 'ReconcilePaused');
  assert.equal(kube.writes, ['status IdentityServer/identity/kc']);
  const o = kube.find('IdentityServer', 'identity', 'kc') as KubeObject;
  kube.put({ ...o, metadata: { ...o.metadata, annotations: {} } });
  await reconcile('identity/kc');
  assert.ok(kube.writes.some((w) => w.startsWith('apply Deployment/')));
});

test.run();
