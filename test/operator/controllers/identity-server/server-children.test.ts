// An IdentityServer never takes over an object of one of its children's names that it does not control: nothing is
// applied, and the server is Failed/ChildNameConflict naming the objects and the way out. And a server with the
// longest names Kubernetes accepts is compiled into objects the (strict) API server accepts, and deleted without a
// hang: its cleanup lists by a label value the API server takes. A master client of the operator's name that the
// operator did not create is named on the server's status.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { KubeObject } from '../../../../src/operator/compile/kube-object.ts';
import { identityServerController } from '../../../../src/operator/controllers/identity-server/identity-server.ts';
import { fakeKube } from '../fake-kube.ts';
import { cluster, dbSecret, deps, fakeKeycloak, idServer, makeAvailable } from './server-fixtures.ts';

const handMade = (kind: string, apiVersion: string, name: string, namespace = 'identity'): KubeObject => ({
  apiVersion,
  kind,
  metadata: { name, namespace, labels: { app: 'theirs' } },
  spec: { theirs: true },
});
const status = (kube: ReturnType<typeof fakeKube>, name = 'kc', ns = 'identity') =>
  kube.find('IdentityServer', ns, name)?.status as Record<string, string>;

test('a hand-made Service, Deployment and Secret of child names: nothing applied, Failed/ChildNameConflict naming them', async () => {
  const theirs = [
    handMade('Service', 'v1', 'kc'),
    handMade('Deployment', 'apps/v1', 'kc'),
    handMade('Secret', 'v1', 'kc-db-credentials'),
  ];
  const kube = fakeKube([idServer(), dbSecret, cluster, ...theirs]);
  const out = await identityServerController(deps(kube, 'http://127.0.0.1:1'))('identity/kc');
  assert.is(out.outcome?.phase, 'Failed');
  assert.is(out.outcome?.reason, 'ChildNameConflict');
  const message = status(kube).message;
  for (const name of ['Service identity/kc', 'Deployment identity/kc', 'Secret identity/kc-db-credentials'])
    assert.match(message, name);
  assert.match(message, /delete them or give the IdentityServer another name/);
  // The finalizer (the database is in another namespace) and the status: no child of any name is written.
  assert.equal(kube.writes, ['apply IdentityServer/identity/kc', 'status IdentityServer/identity/kc']);
  for (const o of theirs) {
    const live = kube.find(o.kind, 'identity', o.metadata.name) as KubeObject;
    assert.equal(live.spec, { theirs: true });
    assert.is(live.metadata.ownerReferences, undefined);
  }
});

test("an object controlled by another owner is not ours either; the server's own children are", async () => {
  const kube = fakeKube([idServer(), dbSecret, cluster]);
  const reconcile = identityServerController(deps(kube, 'http://127.0.0.1:1'));
  assert.is((await reconcile('identity/kc')).outcome?.phase, 'Provisioning');
  const service = kube.find('Service', 'identity', 'kc') as KubeObject;
  kube.put({
    ...service,
    metadata: {
      ...service.metadata,
      ownerReferences: [{ ...service.metadata.ownerReferences?.[0], uid: 'other' }],
    },
  } as KubeObject);
  kube.writes.length = 0;
  const out = await reconcile('identity/kc');
  assert.is(out.outcome?.reason, 'ChildNameConflict');
  assert.equal(kube.writes, ['status IdentityServer/identity/kc']);
});

test('a Database of the same name in the database namespace, made by hand, is a conflict too', async () => {
  const theirs = handMade('Database', 'postgresql.cnpg.io/v1', 'identity-kc-keycloak', 'db');
  const kube = fakeKube([idServer(), dbSecret, cluster, theirs]);
  const out = await identityServerController(deps(kube, 'http://127.0.0.1:1'))('identity/kc');
  assert.is(out.outcome?.reason, 'ChildNameConflict');
  assert.match(status(kube).message, 'Database db/identity-kc-keycloak');
  assert.equal(kube.find('Database', 'db', 'identity-kc-keycloak')?.spec, { theirs: true });
});

test('the longest names Kubernetes accepts: every child is valid, and deletion cleans up and ends', async () => {
  const ns = `n${'s'.repeat(62)}`;
  const name = `k${'c'.repeat(252)}`;
  const server = idServer();
  server.metadata = { ...server.metadata, name, namespace: ns };
  const kube = fakeKube([server, dbSecret, cluster]);
  const reconcile = identityServerController(deps(kube, 'http://127.0.0.1:1'));
  const out = await reconcile(`${ns}/${name}`);
  // The strict fake refuses an invalid name or label value as the API server does (422: InvalidSpec).
  assert.is(out.outcome?.phase, 'Provisioning', status(kube, name, ns)?.message);
  assert.is(out.outcome?.applied.length, 6, out.outcome?.applied.join(', '));
  const database = [...kube.objects.values()].find((o) => o.kind === 'Database') as KubeObject;
  assert.is(database.metadata.namespace, 'db');
  const stored = kube.find('IdentityServer', ns, name) as KubeObject;
  assert.equal(stored.metadata.finalizers, ['realmforge.dev/cleanup']);
  kube.put({
    ...stored,
    metadata: { ...stored.metadata, deletionTimestamp: new Date(Date.UTC(2026, 0, 1)) },
  });
  const gone = await reconcile(`${ns}/${name}`);
  assert.equal(gone.outcome?.deleted, [`Database db/${database.metadata.name}`]);
  assert.is(kube.find('IdentityServer', ns, name), undefined, 'the finalizer was released');
});

test('a realmforge-operator client in master made by hand: the server names OperatorClientConflict, not a token problem', async () => {
  const kc = await fakeKeycloak({ health: 'UP', password: 'generated-pw' });
  try {
    kc.master.client = { id: 'theirs', secret: 's', roles: [], lightweight: false, attributes: {} };
    const kube = fakeKube([idServer(), dbSecret, cluster]);
    const reconcile = identityServerController(deps(kube, kc.url));
    await reconcile('identity/kc');
    makeAvailable(kube);
    const out = await reconcile('identity/kc');
    assert.is(out.outcome?.reason, 'OperatorClientConflict');
    assert.match(status(kube).message, 'master already has a client realmforge-operator');
    assert.equal(kc.master.client.roles, [], 'not granted admin');
    assert.is(kc.master.client.secret, 's', 'not re-keyed');
  } finally {
    await kc.close();
  }
});

test.run();
