// The realm controller's branches against the in-memory cluster and Keycloak: ownership (RealmNameConflict,
// explicit adoption), the server's realm grants, master, SMTP password rotation, and deletion that never leaks.

import { createHash, createHmac } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { KubeObject } from '../../../../src/operator/compile/kube-object.ts';
import { identityRealmController } from '../../../../src/operator/controllers/identity-realm/identity-realm.ts';
import {
  realmOwnerAttribute,
  smtpPasswordHashAttribute,
} from '../../../../src/operator/controllers/identity-realm/realm-ownership.ts';
import { openRecord, sealRecord } from '../../../../src/operator/keycloak/collections/record.ts';
import {
  handMadeRealm,
  keycloakWorld,
  markDeleted,
  readyServer,
  realmResource,
  rejects,
  statusOf,
  type World,
} from '../keycloak-world.ts';

const reconcile = (world: World, key: string) => identityRealmController(world.deps)(key);

test('a new realm is created with the owner marker; a resync writes nothing', async () => {
  const world = keycloakWorld([realmResource('apps', 'identity')]);
  const first = await reconcile(world, 'identity/apps');
  assert.is(first.outcome?.phase, 'Ready');
  const live = openRecord(world.keycloak.realms.get('apps'));
  assert.is(live?.attributes?.[realmOwnerAttribute], 'identity/apps');
  world.keycloak.reset();
  const again = await reconcile(world, 'identity/apps');
  assert.equal(again.outcome?.writes, []);
  assert.equal(world.keycloak.writes(), []);
});

test('two IdentityRealms naming one realm: the second is RealmNameConflict, and deleting it leaves the realm', async () => {
  const world = keycloakWorld([
    realmResource('apps', 'identity'),
    realmResource('thief', 'identity', { realmName: 'apps', displayName: 'Mine now' }),
  ]);
  await reconcile(world, 'identity/apps');
  const loser = await reconcile(world, 'identity/thief');
  assert.is(loser.outcome?.reason, 'RealmNameConflict');
  const status = statusOf(world, 'IdentityRealm', 'identity', 'thief');
  assert.is(status.phase, 'Failed');
  assert.match(status.message ?? '', 'belongs to IdentityRealm identity/apps');
  assert.is(world.keycloak.realms.get('apps')?.displayName, undefined, 'nothing written by the loser');
  world.keycloak.reset();
  markDeleted(world, 'IdentityRealm', 'identity', 'thief');
  await reconcile(world, 'identity/thief');
  assert.ok(world.keycloak.realms.has('apps'), 'the realm stays');
  assert.equal(world.keycloak.writes(), []);
  assert.is(world.kube.find('IdentityRealm', 'identity', 'thief'), undefined, 'finalizer released');
});

test('a realm created outside realmforge is not adopted unless spec.adoptExisting asks for it', async () => {
  const world = keycloakWorld([realmResource('legacy', 'identity', { displayName: 'Legacy' })]);
  await handMadeRealm(world, 'legacy');
  const refused = await reconcile(world, 'identity/legacy');
  assert.is(refused.outcome?.reason, 'RealmNameConflict');
  assert.match(
    statusOf(world, 'IdentityRealm', 'identity', 'legacy').message ?? '',
    'created outside realmforge',
  );
  assert.equal(world.keycloak.writes(), []);
  markDeleted(world, 'IdentityRealm', 'identity', 'legacy');
  await reconcile(world, 'identity/legacy');
  assert.ok(world.keycloak.realms.has('legacy'), 'never deleted when not ours');

  const adopting = keycloakWorld([realmResource('legacy', 'identity', { adoptExisting: true })]);
  await handMadeRealm(adopting, 'legacy');
  const adopted = await reconcile(adopting, 'identity/legacy');
  assert.is(adopted.outcome?.phase, 'Ready');
  assert.is(
    openRecord(adopting.keycloak.realms.get('legacy'))?.attributes?.[realmOwnerAttribute],
    'identity/legacy',
  );
});

test('a realm this resource created before owner markers (its id in status.realmId) gets the marker, not a conflict', async () => {
  const world = keycloakWorld([]);
  await handMadeRealm(world, 'apps');
  const realmId = world.keycloak.realms.get('apps')?.id;
  world.kube.put(realmResource('apps', 'identity', {}, { phase: 'Ready', realmId }));
  assert.is((await reconcile(world, 'identity/apps')).outcome?.phase, 'Ready');
  assert.is(
    openRecord(world.keycloak.realms.get('apps'))?.attributes?.[realmOwnerAttribute],
    'identity/apps',
  );
});

test('a namespace not in the server realm grants creates nothing: Pending/NamespaceNotAuthorized', async () => {
  const world = keycloakWorld([realmResource('apps', 'team-a')]);
  const out = await reconcile(world, 'team-a/apps');
  assert.is(out.outcome?.reason, 'NamespaceNotAuthorized');
  assert.is(statusOf(world, 'IdentityRealm', 'team-a', 'apps').phase, 'Pending');
  assert.equal(world.keycloak.writes(), []);

  const granted = keycloakWorld(
    [realmResource('apps', 'team-a')],
    readyServer({ realmAuthorizationGrants: ['team-a'] }),
  );
  assert.is((await reconcile(granted, 'team-a/apps')).outcome?.phase, 'Ready');
  // Revoking the grant: no more writes, and deleting the resource leaves the realm.
  granted.kube.put(readyServer({ realmAuthorizationGrants: [] }));
  granted.keycloak.reset();
  const revoked = await reconcile(granted, 'team-a/apps');
  assert.is(revoked.outcome?.reason, 'NamespaceNotAuthorized');
  markDeleted(granted, 'IdentityRealm', 'team-a', 'apps');
  await reconcile(granted, 'team-a/apps');
  assert.equal(granted.keycloak.writes(), []);
  assert.ok(granted.keycloak.realms.has('apps'));
});

test('master is refused whether it comes from spec.realmName or metadata.name', async () => {
  const world = keycloakWorld([realmResource('master', 'identity')]);
  const out = await reconcile(world, 'identity/master');
  assert.is(out.outcome?.phase, 'Failed');
  assert.match(statusOf(world, 'IdentityRealm', 'identity', 'master').message ?? '', 'from metadata.name');
  assert.equal(world.keycloak.writes(), []);
});

test('a rotated SMTP password reaches Keycloak (compared by hash); an unchanged one is not resent', async () => {
  const secret = (password: string) => ({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'smtp', namespace: 'identity' },
    data: { password: Buffer.from(password).toString('base64') },
  });
  const smtp = {
    host: 'mail',
    from: 'id@example.com',
    user: 'u',
    passwordSecretRef: { name: 'smtp', key: 'password' },
  };
  const world = keycloakWorld([realmResource('apps', 'identity', { smtp }), secret('one')]);
  await reconcile(world, 'identity/apps');
  world.keycloak.reset();
  await reconcile(world, 'identity/apps');
  assert.equal(world.keycloak.writes(), [], 'an unchanged password is not resent');
  const stored = () => world.keycloak.realms.get('apps')?.smtpServer?.password;
  assert.is(stored(), 'one');
  const hash = openRecord(world.keycloak.realms.get('apps'))?.attributes?.[smtpPasswordHashAttribute];
  assert.type(hash, 'string');
  assert.not.match(String(hash), 'one');
  world.kube.put(secret('two'));
  const rotated = await reconcile(world, 'identity/apps');
  assert.equal(rotated.outcome?.writes, [`update realm (attributes/${smtpPasswordHashAttribute})`]);
  assert.is(stored(), 'two');
});

test('the SMTP hash is an HMAC with a key Secret made once per server; a plain hash from before is replaced once', async () => {
  const smtp = { host: 'mail', from: 'id@example.com', passwordSecretRef: { name: 'smtp', key: 'password' } };
  const world = keycloakWorld([
    realmResource('apps', 'identity', { smtp }),
    realmResource('shop', 'identity', { smtp }),
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'smtp', namespace: 'identity' },
      data: { password: Buffer.from('1234').toString('base64') },
    },
  ]);
  await Promise.all([reconcile(world, 'identity/apps'), reconcile(world, 'identity/shop')]);
  const keySecret = world.kube.find('Secret', 'identity', 'kc-hash-key');
  assert.equal(
    keySecret?.metadata.ownerReferences?.map((r) => [r.kind, r.uid, r.controller]),
    [['IdentityServer', 'srv-uid', true]],
  );
  const key = Buffer.from(
    String((keySecret?.data as Record<string, string> | undefined)?.key),
    'base64',
  ).toString();
  const hash = (realm: string) =>
    openRecord(world.keycloak.realms.get(realm))?.attributes?.[smtpPasswordHashAttribute];
  for (const realm of ['apps', 'shop'])
    assert.is(
      hash(realm),
      createHmac('sha256', key).update(`${realm}\u00001234`).digest('hex').slice(0, 32),
      'one key for both realms',
    );
  // A realm synced before keyed hashes: its attribute holds the unkeyed hash.
  const live = world.keycloak.realms.get('apps');
  if (live?.attributes && live.smtpServer) {
    const unkeyed = createHash('sha256').update('apps\u00001234').digest('hex').slice(0, 32);
    Object.assign(
      live.attributes,
      sealRecord({ attributes: { [smtpPasswordHashAttribute]: unkeyed } }, live).attributes,
    );
    live.smtpServer.password = 'stale';
  }
  world.keycloak.reset();
  const migrated = await reconcile(world, 'identity/apps');
  assert.equal(migrated.outcome?.writes, [`update realm (attributes/${smtpPasswordHashAttribute})`]);
  assert.is(
    world.keycloak.realms.get('apps')?.smtpServer?.password,
    '1234',
    'the password is sent once with it',
  );
  world.keycloak.reset();
  await reconcile(world, 'identity/apps');
  assert.equal(world.keycloak.writes(), [], 'then steady');
  assert.equal(
    world.kube.find('Secret', 'identity', 'kc-hash-key')?.data,
    keySecret?.data,
    'the key is kept',
  );
});

test('a Secret named like the hash key that realmforge did not make is a conflict, never overwritten', async () => {
  const smtp = { host: 'mail', from: 'id@example.com', passwordSecretRef: { name: 'smtp', key: 'password' } };
  const theirs = {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'kc-hash-key', namespace: 'identity' },
    data: { key: 'dGhlaXJz' },
  };
  const world = keycloakWorld([
    realmResource('apps', 'identity', { smtp }),
    theirs,
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'smtp', namespace: 'identity' },
      data: { password: 'cHc=' },
    },
  ]);
  const out = await reconcile(world, 'identity/apps');
  assert.is(out.outcome?.reason, 'ChildNameConflict');
  assert.match(
    statusOf(world, 'IdentityRealm', 'identity', 'apps').message ?? '',
    'Secret identity/kc-hash-key was not created by realmforge',
  );
  assert.equal(world.kube.find('Secret', 'identity', 'kc-hash-key')?.data, theirs.data);
  assert.equal(world.keycloak.writes(), []);
});

test('SMTP password Secret not readable: Pending/SecretAccessDenied, nothing written', async () => {
  const smtp = { host: 'mail', from: 'id@example.com', passwordSecretRef: { name: 'smtp', key: 'password' } };
  const world = keycloakWorld([realmResource('apps', 'identity', { smtp })]);
  world.kube.forbidden.add('Secret/identity/smtp');
  const out = await reconcile(world, 'identity/apps');
  assert.is(out.outcome?.reason, 'SecretAccessDenied');
  assert.match(
    statusOf(world, 'IdentityRealm', 'identity', 'apps').message ?? '',
    'keycloak-operator-namespace-access',
  );
  assert.equal(world.keycloak.writes(), []);
});

test('deleting while Keycloak is down or the server not Ready retries, then deletes once it is back', async () => {
  const world = keycloakWorld([realmResource('apps', 'identity')]);
  await reconcile(world, 'identity/apps');
  markDeleted(world, 'IdentityRealm', 'identity', 'apps');
  world.kube.put(readyServer({}, 'Provisioning'));
  await rejects(reconcile(world, 'identity/apps'), /not Ready/);
  assert.ok(world.kube.find('IdentityRealm', 'identity', 'apps'), 'finalizer kept');
  world.kube.put(readyServer());
  world.keycloak.setDown(true);
  await rejects(reconcile(world, 'identity/apps'), /unreachable/);
  world.keycloak.setDown(false);
  world.clock.advance(60_000);
  await reconcile(world, 'identity/apps');
  assert.not.ok(world.keycloak.realms.has('apps'), 'deleted after Keycloak came back');
  assert.is(world.kube.find('IdentityRealm', 'identity', 'apps'), undefined);
});

test('deleting gives up after the give-up time with a CleanupAbandoned event; a deleted server releases at once', async () => {
  const world = keycloakWorld([realmResource('apps', 'identity')]);
  await reconcile(world, 'identity/apps');
  markDeleted(world, 'IdentityRealm', 'identity', 'apps');
  world.keycloak.setDown(true);
  world.clock.advance(300_001);
  await reconcile(world, 'identity/apps');
  assert.is(world.kube.events.at(-1)?.reason, 'CleanupAbandoned');
  assert.match(world.kube.events.at(-1)?.message ?? '', 'realm apps');

  const gone = keycloakWorld([realmResource('apps', 'identity')]);
  await reconcile(gone, 'identity/apps');
  markDeleted(gone, 'IdentityRealm', 'identity', 'apps');
  gone.kube.objects.delete('IdentityServer/identity/kc');
  gone.keycloak.setDown(true);
  await reconcile(gone, 'identity/apps');
  assert.is(gone.kube.find('IdentityRealm', 'identity', 'apps'), undefined);
});

test('on an existing Keycloak (spec.external): Ready with the issuer under its URL; a hand-made realm is refused', async () => {
  const external: KubeObject = {
    apiVersion: 'realmforge.dev/v1',
    kind: 'IdentityServer',
    metadata: { name: 'kc', namespace: 'identity', uid: 'srv-uid', generation: 1 },
    spec: { external: { url: 'https://keycloak.example.com/auth/', credentialsSecret: 'kc-login' } },
    status: { phase: 'Ready', version: '26.7.3' },
  };
  const world = keycloakWorld(
    [realmResource('apps', 'identity'), realmResource('legacy', 'identity')],
    external,
  );
  const done = await reconcile(world, 'identity/apps');
  assert.is(done.outcome?.phase, 'Ready');
  const status = world.kube.find('IdentityRealm', 'identity', 'apps')?.status as { issuer?: string };
  assert.is(status.issuer, 'https://keycloak.example.com/auth/realms/apps');
  assert.is(
    openRecord(world.keycloak.realms.get('apps'))?.attributes?.[realmOwnerAttribute],
    'identity/apps',
  );
  await handMadeRealm(world, 'legacy');
  const refused = await reconcile(world, 'identity/legacy');
  assert.is(refused.outcome?.reason, 'RealmNameConflict');
  assert.equal(world.keycloak.writes(), []);
});
test.run();
