import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { KubeObject } from '../../../../src/operator/compile/kube-object.ts';
import { identityServerController } from '../../../../src/operator/controllers/identity-server/identity-server.ts';
import type { HttpClient } from '../../../../src/operator/runtime/deps.ts';
import { fakeKube } from '../fake-kube.ts';
import {
  cluster,
  dbSecret,
  deployment,
  deps,
  fakeKeycloak,
  idServer,
  makeAvailable,
} from './server-fixtures.ts';

test('database cluster missing: Pending, nothing applied, a Warning event', async () => {
  const kube = fakeKube([idServer(), dbSecret]);
  const out = await identityServerController(deps(kube, 'http://127.0.0.1:1'))('identity/kc');
  const status = kube.find('IdentityServer', 'identity', 'kc')?.status as Record<string, unknown>;
  assert.is(status.phase, 'Pending');
  assert.is(status.reason, 'DatabaseClusterMissing');
  // The database is in another namespace: the cleanup finalizer comes first, before anything exists there.
  assert.equal(kube.writes, ['apply IdentityServer/identity/kc', 'status IdentityServer/identity/kc']);
  assert.is(kube.events[0]?.type, 'Warning');
  assert.is(out.requeueAfterMs, 10_000);
});

test('no Secret access in the database namespace: Pending/SecretAccessDenied naming the RoleBinding', async () => {
  const kube = fakeKube([idServer(), dbSecret, cluster]);
  kube.forbidden.add('Secret/db/pg-app');
  await identityServerController(deps(kube, 'http://127.0.0.1:1'))('identity/kc');
  const status = kube.find('IdentityServer', 'identity', 'kc')?.status as Record<string, string>;
  assert.is(status.phase, 'Pending');
  assert.is(status.reason, 'SecretAccessDenied');
  assert.match(status.message, 'keycloak-operator-namespace-access');
});

test("no Secret access in the server's own namespace: Pending/SecretAccessDenied, nothing applied", async () => {
  const kube = fakeKube([idServer(), dbSecret, cluster]);
  kube.forbidden.add('Secret/identity/kc-admin-credentials');
  const out = await identityServerController(deps(kube, 'http://127.0.0.1:1'))('identity/kc');
  assert.is(out.outcome?.reason, 'SecretAccessDenied');
  assert.is(out.outcome?.phase, 'Pending');
  assert.equal(out.outcome?.applied, []);
  assert.is(out.requeueAfterMs, 10_000);
});

test('provisioning to Ready, then zero writes on resync; the admin password is generated once', async () => {
  const kc = await fakeKeycloak({ health: 'UP', password: 'generated-pw' });
  try {
    const kube = fakeKube([idServer(), dbSecret, cluster]);
    const reconcile = identityServerController(deps(kube, kc.url));
    const first = await reconcile('identity/kc');
    assert.is(first.outcome?.phase, 'Provisioning');
    assert.ok(kube.writes.includes('apply Deployment/identity/kc'));
    assert.ok(kube.writes.includes('apply Secret/identity/kc-db-credentials'));
    const admin = kube.find('Secret', 'identity', 'kc-admin-credentials')?.data as Record<string, string>;
    assert.is(Buffer.from(admin.password, 'base64').toString(), 'generated-pw');
    makeAvailable(kube);
    kube.writes.length = 0;
    const second = await reconcile('identity/kc');
    assert.is(second.outcome?.phase, 'Ready');
    // The first admin call creates the operator's own client with the bootstrap admin and keeps its credentials.
    assert.equal(kube.writes, [
      'apply Secret/identity/kc-operator-client',
      'status IdentityServer/identity/kc',
    ]);
    assert.equal(kc.master.client?.roles, ['create-realm']);
    assert.ok(kc.master.client?.lightweight, 'lightweight access tokens: the token does not list roles');
    assert.ok(
      kc.master.calls.includes('GET serverinfo (operator)'),
      'the readiness check used the operator client',
    );
    // Once per process: the master identity holds no admin to take (Keycloak answers 403).
    assert.is(
      kc.master.calls.at(-1),
      'GET /users?username=service-account-realmforge-operator&exact=true (operator)',
    );
    assert.is(kube.events.at(-2)?.reason, 'OperatorClientCreated');
    assert.is(second.requeueAfterMs, undefined);
    kube.writes.length = 0;
    const again = identityServerController({ ...deps(kube, kc.url), newPassword: () => 'must-not-be-used' });
    await again('identity/kc');
    // Its own identity exists: it is kept beside the database instead of the bootstrap admin, whose copy goes.
    assert.equal(kube.writes, [
      'apply Secret/db/pg-keycloak-realmforge-operator',
      'delete Secret/db/pg-keycloak-keycloak-admin',
    ]);
    const copy = kube.find('Secret', 'db', 'pg-keycloak-realmforge-operator')?.data as Record<string, string>;
    assert.equal(Object.keys(copy).sort(), ['client-id', 'client-secret', 'realm-key']);
    kube.writes.length = 0;
    await again('identity/kc');
    assert.equal(kube.writes, [], 'a resync with nothing changed writes nothing');
  } finally {
    await kc.close();
  }
});

test('slow is not down: /health/ready timing out while an admin call succeeds keeps the server Ready; failing calls do not', async () => {
  const kc = await fakeKeycloak({ health: 'UP', password: 'generated-pw' });
  // /health/ready does not answer within its timeout (the timeout is what fetch would report).
  const slowHealth: HttpClient = (url, init) =>
    url.endsWith('/health/ready')
      ? Promise.reject(new DOMException('The operation was aborted due to timeout', 'TimeoutError'))
      : fetch(url, init);
  try {
    const kube = fakeKube([idServer(), dbSecret, cluster]);
    const reconcile = identityServerController(deps(kube, kc.url, slowHealth));
    await reconcile('identity/kc');
    makeAvailable(kube);
    const out = await reconcile('identity/kc');
    assert.is(out.outcome?.phase, 'Ready');
    // A slow health endpoint and failing admin calls: not Ready, and the status says which check failed.
    const wrong = fakeKube([idServer(), dbSecret, cluster]);
    const other = identityServerController({
      ...deps(wrong, kc.url, slowHealth),
      newPassword: () => 'not-the-password',
    });
    await other('identity/kc');
    makeAvailable(wrong);
    assert.is((await other('identity/kc')).outcome?.reason, 'HealthNotReady');
    const status = wrong.find('IdentityServer', 'identity', 'kc')?.status as { message?: string };
    assert.match(status.message ?? '', /health\/ready did not answer within 15 s/);
    // Health UP but the admin account refused: AdminCredentialsRejected, with the admin client's reason.
    const refusedKube = fakeKube([idServer(), dbSecret, cluster]);
    const refused = identityServerController({
      ...deps(refusedKube, kc.url),
      newPassword: () => 'not-the-password',
    });
    await refused('identity/kc');
    makeAvailable(refusedKube);
    assert.is((await refused('identity/kc')).outcome?.reason, 'AdminCredentialsRejected');
    const refusedStatus = refusedKube.find('IdentityServer', 'identity', 'kc')?.status as {
      message?: string;
    };
    assert.match(refusedStatus.message ?? '', /refused the admin credentials \(HTTP 401/);
  } finally {
    await kc.close();
  }
});

test('health DOWN keeps the server Provisioning with HealthNotReady', async () => {
  const kc = await fakeKeycloak({ health: 'DOWN', password: 'generated-pw' });
  try {
    const kube = fakeKube([idServer(), dbSecret, cluster]);
    const reconcile = identityServerController(deps(kube, kc.url));
    await reconcile('identity/kc');
    makeAvailable(kube);
    const out = await reconcile('identity/kc');
    assert.is(out.outcome?.reason, 'HealthNotReady');
  } finally {
    await kc.close();
  }
});

test('turning the ingress off deletes it; drift is reverted; the reconcile annotation re-applies everything', async () => {
  const kube = fakeKube([
    idServer({ ingress: { enabled: true, host: 'id.example.com', className: 'nginx' } }),
    dbSecret,
    cluster,
  ]);
  const reconcile = identityServerController(deps(kube, 'http://127.0.0.1:1'));
  await reconcile('identity/kc');
  assert.ok(kube.find('Ingress', 'identity', 'kc'));
  kube.put(idServer({ ingress: { enabled: false } }));
  kube.writes.length = 0;
  const off = await reconcile('identity/kc');
  assert.equal(off.outcome?.deleted, ['Ingress identity/kc']);
  assert.is(kube.find('Ingress', 'identity', 'kc'), undefined);

  const svc = kube.find('Service', 'identity', 'kc') as KubeObject;
  (svc.spec as { selector: Record<string, string> }).selector = { app: 'hijacked' };
  const drift = await reconcile('identity/kc');
  assert.equal(drift.outcome?.applied, [
    'Service identity/kc (drifted at .spec.selector.app.kubernetes.io/instance)',
  ]);

  kube.put({
    ...(kube.find('IdentityServer', 'identity', 'kc') as KubeObject),
    metadata: { ...idServer().metadata, annotations: { reconcile: '1' } },
  });
  const forced = await reconcile('identity/kc');
  assert.ok((forced.outcome?.applied.length ?? 0) >= 4, 'forced: every object applied');
  const calm = await reconcile('identity/kc');
  assert.equal(calm.outcome?.applied, [], 'the same annotation value does not force again');
});

test('a database in another namespace: the finalizer holds the server until its labelled Database there is deleted', async () => {
  const other: KubeObject = {
    apiVersion: 'postgresql.cnpg.io/v1',
    kind: 'Database',
    metadata: { name: 'other-kc', namespace: 'db', labels: { 'realmforge.dev/identity-server': 'other.kc' } },
  };
  const kube = fakeKube([idServer(), dbSecret, cluster, other]);
  const reconcile = identityServerController(deps(kube, 'http://127.0.0.1:1'));
  await reconcile('identity/kc');
  const stored = kube.find('IdentityServer', 'identity', 'kc') as KubeObject;
  assert.equal(stored.metadata.finalizers, ['realmforge.dev/cleanup']);
  assert.ok(stored.spec, 'adding the finalizer keeps the spec');
  const database = kube.find('Database', 'db', 'identity-kc-keycloak') as KubeObject;
  assert.is(database.metadata.labels?.['realmforge.dev/identity-server'], 'identity.kc');
  assert.is(database.metadata.ownerReferences, undefined, 'no owner reference across namespaces');
  kube.writes.length = 0;
  await reconcile('identity/kc');
  assert.not.ok(kube.writes.includes('apply IdentityServer/identity/kc'), 'the finalizer is added once');

  kube.put({
    ...stored,
    metadata: { ...stored.metadata, deletionTimestamp: new Date(Date.UTC(2026, 0, 1)) },
  });
  kube.writes.length = 0;
  const out = await reconcile('identity/kc');
  assert.equal(out.outcome?.deleted, ['Database db/identity-kc-keycloak']);
  assert.equal(kube.writes, ['delete Database/db/identity-kc-keycloak', 'apply IdentityServer/identity/kc']);
  assert.is(kube.find('IdentityServer', 'identity', 'kc'), undefined, 'the finalizer was released');
  assert.ok(kube.find('Database', 'db', 'other-kc'), "another server's Database stays");
});

test("a database in the server's own namespace needs no finalizer: owner references clean up", async () => {
  const local = idServer({ database: { cluster: 'pg', namespace: 'identity' } });
  const kube = fakeKube([
    local,
    { ...dbSecret, metadata: { name: 'pg-app', namespace: 'identity' } },
    { ...cluster, metadata: { name: 'pg', namespace: 'identity' } },
  ]);
  await identityServerController(deps(kube, 'http://127.0.0.1:1'))('identity/kc');
  assert.is(kube.find('IdentityServer', 'identity', 'kc')?.metadata.finalizers, undefined);
  assert.not.ok(kube.writes.includes('apply IdentityServer/identity/kc'));
  const database = kube.find('Database', 'identity', 'kc-keycloak') as KubeObject;
  assert.is(database.metadata.ownerReferences?.[0]?.uid, 'srv-uid');
});

test('admin Secret deleted after Ready: restored from the copy kept beside the database, never regenerated', async () => {
  const kc = await fakeKeycloak({ health: 'UP', password: 'generated-pw' });
  try {
    const kube = fakeKube([idServer(), dbSecret, cluster]);
    await identityServerController(deps(kube, kc.url))('identity/kc');
    makeAvailable(kube);
    await identityServerController(deps(kube, kc.url))('identity/kc');
    const kept = kube.find('Secret', 'db', 'pg-keycloak-keycloak-admin') as KubeObject;
    assert.ok(kept, 'a copy is kept beside the database');
    assert.is(kept.metadata.ownerReferences, undefined, 'owned by nothing: it outlives the server');
    kube.objects.delete('Secret/identity/kc-admin-credentials');
    const later = identityServerController({ ...deps(kube, kc.url), newPassword: () => 'must-not-be-used' });
    const out = await later('identity/kc');
    assert.is(out.outcome?.phase, 'Ready');
    const admin = kube.find('Secret', 'identity', 'kc-admin-credentials')?.data as Record<string, string>;
    assert.is(Buffer.from(admin.password, 'base64').toString(), 'generated-pw');
  } finally {
    await kc.close();
  }
});

test('a server re-created on its retained database takes the kept admin and becomes Ready', async () => {
  const kc = await fakeKeycloak({ health: 'UP', password: 'first-pw' });
  try {
    const kube = fakeKube([idServer(), dbSecret, cluster]);
    await identityServerController({ ...deps(kube, kc.url), newPassword: () => 'first-pw' })('identity/kc');
    for (const key of [...kube.objects.keys()])
      if (key.startsWith('IdentityServer/') || key.includes('/identity/')) kube.objects.delete(key);
    kube.put(idServer());
    const reconcile = identityServerController({ ...deps(kube, kc.url), newPassword: () => 'second-pw' });
    await reconcile('identity/kc');
    makeAvailable(kube);
    assert.is((await reconcile('identity/kc')).outcome?.phase, 'Ready');
  } finally {
    await kc.close();
  }
});

test('once its identity exists the bootstrap admin is let go: a deleted admin Secret is not re-created and rolls nothing out (the pods name it as optional), a re-created server gets the identity back', async () => {
  const state = { health: 'UP', password: 'generated-pw' };
  const kc = await fakeKeycloak(state);
  try {
    const kube = fakeKube([idServer(), dbSecret, cluster]);
    const reconcile = identityServerController({ ...deps(kube, kc.url), newPassword: () => 'generated-pw' });
    await reconcile('identity/kc');
    makeAvailable(kube);
    await reconcile('identity/kc'); // Ready: the operator's client is created
    await reconcile('identity/kc'); // its identity is kept beside the database, the bootstrap copy goes
    assert.is(kube.find('Secret', 'db', 'pg-keycloak-keycloak-admin'), undefined);
    const envNames = () =>
      (deployment(kube) as any).spec.template.spec.containers[0].env.map((e: { name: string }) => e.name);
    assert.ok(envNames().includes('KC_BOOTSTRAP_ADMIN_PASSWORD'));
    const template = () => JSON.stringify((deployment(kube) as any).spec.template);
    const [pods, optional] = [template(), (deployment(kube) as any).spec.template.spec.containers[0].env];
    assert.ok(
      optional
        .filter((e: { name: string }) => e.name.startsWith('KC_BOOTSTRAP_ADMIN'))
        .every((e: any) => e.valueFrom.secretKeyRef.optional === true),
      'a pod starts without the Secret',
    );
    kube.objects.delete('Secret/identity/kc-admin-credentials');
    state.password = 'nobody-knows';
    const later = identityServerController({ ...deps(kube, kc.url), newPassword: () => 'must-not-be-used' });
    assert.is((await later('identity/kc')).outcome?.phase, 'Ready');
    assert.is(kube.find('Secret', 'identity', 'kc-admin-credentials'), undefined, 'not re-created');
    assert.is(template(), pods, 'no rollout: Keycloak keeps running');
    // Deleted and re-created on the retained database: its identity comes back from beside the database.
    const before = kube.find('Secret', 'identity', 'kc-operator-client')?.data;
    for (const key of [...kube.objects.keys()])
      if (key.startsWith('IdentityServer/') || key.includes('/identity/')) kube.objects.delete(key);
    kube.put(idServer());
    await later('identity/kc');
    makeAvailable(kube);
    assert.is((await later('identity/kc')).outcome?.phase, 'Ready');
    assert.equal(kube.find('Secret', 'identity', 'kc-operator-client')?.data, before, 'client and realm key');
    assert.ok(kube.events.some((e) => e.reason === 'OperatorClientRestored'));
    assert.is(kube.find('Secret', 'identity', 'kc-admin-credentials'), undefined, 'no useless password made');
  } finally {
    await kc.close();
  }
});

test('admin Secret and kept copy both gone on a server that ran: AdminCredentialsLost with the steps, nothing generated', async () => {
  const ran = { ...idServer(), status: { phase: 'Ready', version: '26.0.7' } } as KubeObject;
  const kube = fakeKube([ran, dbSecret, cluster]);
  const out = await identityServerController(deps(kube, 'http://127.0.0.1:1'))('identity/kc');
  assert.is(out.outcome?.reason, 'AdminCredentialsLost');
  assert.equal(out.outcome?.applied, []);
  assert.is(kube.find('Secret', 'identity', 'kc-admin-credentials'), undefined, 'no password generated');
  const status = kube.find('IdentityServer', 'identity', 'kc')?.status as Record<string, string>;
  assert.match(status.message, 'kubectl create secret generic kc-admin-credentials -n identity');
  assert.match(status.message, 'bootstrap-admin user');
  assert.is(out.requeueAfterMs, 10_000, 'looked at again: creating the Secret does not wake the server');
});

test('resources written 1000m and 1024Mi (stored as 1 and 1Gi) cause no write on resync', async () => {
  const resources = { requests: { cpu: '1000m', memory: '1024Mi' }, limits: { memory: '2048Mi' } };
  const kube = fakeKube([idServer({ resources }), dbSecret, cluster]);
  const reconcile = identityServerController(deps(kube, 'http://127.0.0.1:1'));
  await reconcile('identity/kc');
  const stored = deployment(kube) as unknown as {
    spec: { template: { spec: { containers: { resources: unknown }[] } } };
  };
  assert.equal(stored.spec.template.spec.containers[0]?.resources, {
    requests: { cpu: '1', memory: '1Gi' },
    limits: { memory: '2Gi' },
  });
  for (let i = 0; i < 3; i++) {
    kube.writes.length = 0;
    const again = await reconcile('identity/kc');
    assert.equal(again.outcome?.applied, []);
    assert.equal(kube.writes, []);
  }
});

test.run();
