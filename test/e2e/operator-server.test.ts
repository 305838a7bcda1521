// The operator against the real API server and Keycloak, under its own ServiceAccount: an IdentityServer becomes
// Ready, its children are owned by field manager realmforge, drift is reverted, an Ingress turned off is deleted,
// a resync with nothing changed writes nothing, a missing database cluster is named on status, deletion
// garbage-collects the children, a Database in another namespace is deleted through the cleanup finalizer, and
// /metrics exposes every series. Objects of its children's names made by hand are never taken over, and the longest
// names Kubernetes accepts work from creation to deletion.
import type { V1Deployment } from '@kubernetes/client-node';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { eventually, type TestEnv } from '../../scripts/testenv/harness.ts';
import {
  databaseCluster,
  getResource,
  identityServer,
  kubectlWait,
  waitStatus,
} from '../../scripts/testenv/identity-fixtures.ts';
import { grantSecretAccess, type OperatorProcess } from '../../scripts/testenv/operator-process.ts';
import { loadEndpointMap } from '../../src/operator/runtime/endpoint-map.ts';
import { keycloakAdminApi } from './helpers/keycloak-admin.ts';
import { type OperatorSuite, operatorSuite } from './helpers/operator-suite.ts';

let suite: OperatorSuite;
let env: TestEnv;
let operator: OperatorProcess;
let ns: string;

test.before(async () => {
  suite = await operatorSuite('op-server');
  ({ env, ns, operator } = suite);
});
test.after(() => suite?.close());

const deployment = (name: string) =>
  env.apps.readNamespacedDeployment({ namespace: ns, name }).catch(() => undefined) as Promise<
    V1Deployment | undefined
  >;

test('an IdentityServer becomes Ready: children applied by realmforge, Keycloak started, kubectl wait returns', async () => {
  await env.apply(
    identityServer(ns, 'idp', 'pg', { ingress: { enabled: true, host: 'idp.example.test' } }) as never,
  );
  await waitStatus(
    env,
    'identityservers',
    ns,
    'idp',
    400_000,
    (s) => s.phase === 'Ready',
    'to be Ready',
  ).catch((e) => {
    throw new Error(`${e.message}\n${JSON.stringify(operator.logs().slice(-8))}`);
  });
  const out = await kubectlWait(env, 'identityserver/idp', ns, 30);
  assert.match(out, /condition met/);
  const server = await getResource(env, 'identityservers', ns, 'idp');
  assert.is(server.status.observedGeneration, server.metadata.generation);
  assert.is(server.status.readyReplicas, 1);
  assert.match(server.status.endpoints.internal, /^http:\/\/idp\.op-server-[a-z0-9]+\.svc:8080$/);
  const d = await deployment('idp');
  assert.ok(d?.metadata?.managedFields?.some((f) => f.manager === 'realmforge' && f.operation === 'Apply'));
  for (const [kind, read] of [
    ['Service', () => env.core.readNamespacedService({ namespace: ns, name: 'idp' })],
    ['admin Secret', () => env.core.readNamespacedSecret({ namespace: ns, name: 'idp-admin-credentials' })],
    [
      'Ingress',
      () =>
        env
          .request('GET', `/apis/networking.k8s.io/v1/namespaces/${ns}/ingresses/idp`)
          .then((r) => (r.status === 200 ? r.body : undefined)),
    ],
  ] as const) {
    const o = (await read()) as { metadata?: { managedFields?: { manager?: string }[] } } | undefined;
    assert.ok(
      o?.metadata?.managedFields?.some((f) => f.manager === 'realmforge'),
      `${kind} is applied by realmforge`,
    );
  }
  const dbs = await env.request('GET', `/apis/postgresql.cnpg.io/v1/namespaces/${ns}/databases`);
  assert.is(dbs.body.items.length, 1, 'the CNPG Database is created');
});

test('steady state: resyncs with nothing changed write nothing', async () => {
  const writes = async () =>
    (await operator.counter('realmforge_kube_requests_total', { verb: 'apply' })) +
    (await operator.counter('realmforge_kube_requests_total', { verb: 'apply-status' })) +
    (await operator.counter('realmforge_kube_requests_total', { verb: 'delete' }));
  const reconciles = () => operator.counter('realmforge_reconcile_total', { kind: 'IdentityServer' });
  // Once, after Ready: the operator's own identity is kept beside the database and the bootstrap copy goes.
  await eventually('the operator identity to be kept beside the database', 30_000, async () => {
    const secrets = await env.core.listNamespacedSecret({ namespace: ns });
    return secrets.items.some((x) => x.metadata?.name?.endsWith('-realmforge-operator')) ? true : undefined;
  });
  const before = { writes: await writes(), reconciles: await reconciles() };
  await eventually('two more server reconciles (resync every 5 s)', 30_000, async () =>
    (await reconciles()) >= before.reconciles + 2 ? true : undefined,
  );
  const wrote = operator
    .logs()
    .filter(
      (l) => l.kind === 'IdentityServer' && (l.statusWritten || l.applied?.length || l.deleted?.length),
    );
  assert.is(
    await writes(),
    before.writes,
    `no apply, status write or delete during resyncs: ${JSON.stringify(wrote.slice(-2))}`,
  );
});

test('a hand edit of the Deployment (an env var) is reverted', async () => {
  const d = await deployment('idp');
  const container = d?.spec?.template?.spec?.containers?.[0];
  assert.ok(container?.env?.some((e) => e.name === 'KC_HEALTH_ENABLED'));
  const edited = structuredClone(d) as V1Deployment;
  const env0 = edited.spec?.template?.spec?.containers?.[0]?.env ?? [];
  for (const e of env0) if (e.name === 'KC_HEALTH_ENABLED') e.value = 'false';
  await env.apps.replaceNamespacedDeployment({ namespace: ns, name: 'idp', body: edited });
  await eventually('the env var to be reverted', 30_000, async () => {
    const now = await deployment('idp');
    const value = now?.spec?.template?.spec?.containers?.[0]?.env?.find(
      (e) => e.name === 'KC_HEALTH_ENABLED',
    )?.value;
    return value === 'true' ? true : undefined;
  });
});

test('turning the Ingress off deletes it', async () => {
  await env.apply(identityServer(ns, 'idp', 'pg', { ingress: { enabled: false } }) as never);
  await eventually('the Ingress to be deleted', 30_000, async () => {
    const r = await env.request('GET', `/apis/networking.k8s.io/v1/namespaces/${ns}/ingresses/idp`);
    return r.status === 404 ? true : undefined;
  });
});

test('a missing database cluster is named on status; creating it lets the server proceed with no other action', async () => {
  await env.apply(identityServer(ns, 'late', 'pg-late') as never);
  const stuck = await waitStatus(
    env,
    'identityservers',
    ns,
    'late',
    60_000,
    (s) => s.reason === 'DatabaseClusterMissing',
    'to name the missing cluster',
  );
  assert.ok(['Pending', 'Provisioning'].includes(stuck.status.phase));
  assert.match(stuck.status.message, /pg-late/);
  assert.is(await deployment('late'), undefined, 'nothing is deployed without the database');
  await databaseCluster(env, ns, 'pg-late');
  await eventually('the Deployment to be created once the cluster exists', 60_000, async () =>
    (await deployment('late')) ? true : undefined,
  );
  await env.request('DELETE', `/apis/realmforge.dev/v1/namespaces/${ns}/identityservers/late`);
});

test('/metrics exposes every series the operator documents', async () => {
  const text = await operator.metrics();
  for (const name of [
    'realmforge_reconcile_total',
    'realmforge_reconcile_errors_total',
    'realmforge_reconcile_duration_seconds_bucket',
    'realmforge_workqueue_depth',
    'realmforge_resources',
    'realmforge_leader',
    'realmforge_kube_requests_total',
    'realmforge_keycloak_api_requests_total',
    'realmforge_keycloak_api_rate_limit_wait_seconds',
    'realmforge_keycloak_api_rate_limit_queued',
  ]) {
    assert.ok(text.includes(name), `${name} is exported`);
  }
  // The drift test above rolled the Deployment twice: wait for the server to be counted Ready again.
  await eventually('the server to be counted Ready', 180_000, async () =>
    /realmforge_resources\{kind="IdentityServer",phase="Ready"\} 1/.test(await operator.metrics())
      ? true
      : undefined,
  );
  assert.is((await fetch(`${operator.metricsUrl}/healthz`)).status, 200);
  assert.is((await fetch(`${operator.metricsUrl}/readyz`)).status, 200);
  const line = operator
    .logs()
    .find((l) => l.msg === 'reconciled' && l.kind === 'IdentityServer' && l.namespace === ns);
  assert.ok(
    line && line.namespace === ns && typeof line.durationMs === 'number' && line.result === 'success',
    'one JSON line per reconcile',
  );
});

test('deleting the IdentityServer garbage-collects its children', async () => {
  await env.request('DELETE', `/apis/realmforge.dev/v1/namespaces/${ns}/identityservers/idp`);
  await eventually('the Deployment and Service to be collected', 60_000, async () => {
    const d = await deployment('idp');
    const s = await env.core.readNamespacedService({ namespace: ns, name: 'idp' }).catch(() => undefined);
    return !d && !s ? true : undefined;
  });
});

test('a server whose database is in another namespace: deleting it deletes its Database there, then the server', async () => {
  const dbNs = await env.namespace('op-server-db');
  await grantSecretAccess(env, dbNs);
  await databaseCluster(env, dbNs, 'shared');
  const server = identityServer(ns, 'remote', 'shared');
  await env.apply({
    ...server,
    spec: { ...server.spec, database: { ...server.spec.database, namespace: dbNs } },
  } as never);
  const databases = async () => {
    const res = await env.request(
      'GET',
      `/apis/postgresql.cnpg.io/v1/namespaces/${dbNs}/databases?labelSelector=${encodeURIComponent(`realmforge.dev/identity-server=${ns}.remote`)}`,
    );
    return (res.body.items ?? []) as { metadata: { name: string; ownerReferences?: unknown[] } }[];
  };
  const [database] = await eventually('the Database in the database namespace', 60_000, async () => {
    const found = await databases();
    return found.length ? found : undefined;
  });
  assert.is(database.metadata.ownerReferences, undefined);
  const stored = await getResource(env, 'identityservers', ns, 'remote');
  assert.equal(stored.metadata.finalizers, ['realmforge.dev/cleanup']);
  await env.request('DELETE', `/apis/realmforge.dev/v1/namespaces/${ns}/identityservers/remote`);
  await eventually('the Database to be deleted and the server to be gone', 60_000, async () =>
    (await databases()).length === 0 && !(await getResource(env, 'identityservers', ns, 'remote'))
      ? true
      : undefined,
  );
});

test("objects of a server's child names made by hand are left as they are, named on status, and outlive the server", async () => {
  const theirs = { 'app.kubernetes.io/name': 'theirs' };
  for (const object of [
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'taken', namespace: ns, labels: theirs },
      spec: { selector: theirs, ports: [{ port: 80 }] },
    },
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'taken', namespace: ns, labels: theirs },
      spec: {
        replicas: 0,
        selector: { matchLabels: theirs },
        template: { metadata: { labels: theirs }, spec: { containers: [{ name: 'c', image: 'theirs' }] } },
      },
    },
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'taken-admin-credentials', namespace: ns, labels: theirs },
      stringData: { username: 'theirs', password: 'theirs' },
    },
  ])
    await env.apply(object as never);
  const paths = [
    `/api/v1/namespaces/${ns}/services/taken`,
    `/apis/apps/v1/namespaces/${ns}/deployments/taken`,
    `/api/v1/namespaces/${ns}/secrets/taken-admin-credentials`,
  ];
  // What a person would notice: labels, owners, spec or data, and whether realmforge ever applied to it (the
  // Deployment controller writes the Deployment's status and revision annotation, so its resourceVersion moves).
  type Live = {
    metadata: { labels?: object; ownerReferences?: object; managedFields?: { manager?: string }[] };
    spec?: object;
    data?: object;
  };
  const view = async (path: string) => {
    const { metadata, spec, data } = (await env.request('GET', path)).body as Live;
    const managers = metadata.managedFields?.map((f) => f.manager) ?? [];
    return {
      labels: metadata.labels,
      owners: metadata.ownerReferences,
      spec,
      data,
      ours: managers.includes('realmforge'),
    };
  };
  const before = await Promise.all(paths.map(view));
  await env.apply(identityServer(ns, 'taken', 'pg') as never);
  const failed = await waitStatus(
    env,
    'identityservers',
    ns,
    'taken',
    60_000,
    (st) => st.reason === 'ChildNameConflict',
    'to name the conflict',
  );
  assert.is(failed.status.phase, 'Failed');
  for (const name of ['Service', 'Deployment']) assert.match(failed.status.message, `${name} ${ns}/taken`);
  assert.match(failed.status.message, `Secret ${ns}/taken-admin-credentials`);
  assert.match(failed.status.message, /delete them or give the IdentityServer another name/);
  const unchanged = async () => {
    for (const [i, path] of paths.entries()) {
      const now = await view(path);
      assert.equal(now, before[i], `${path} is unchanged`);
      assert.is(now.ours, false, `${path} was never applied by realmforge`);
      assert.is(now.owners, undefined);
    }
  };
  await unchanged();
  await env.request('DELETE', `/apis/realmforge.dev/v1/namespaces/${ns}/identityservers/taken`);
  await eventually('the server to be gone', 60_000, async () =>
    (await getResource(env, 'identityservers', ns, 'taken')) ? undefined : true,
  );
  // The garbage collector removed idp's children within seconds (above); give it as long here.
  await new Promise((r) => setTimeout(r, 5000));
  await unchanged();
});

test('the longest names: a 253-character server and client in a 63-character namespace are Ready, then deleted with nothing left', async () => {
  const longNs = await env.namespace(`op-server-long-${'n'.repeat(41)}`);
  await grantSecretAccess(env, longNs);
  const name = `idp-${'x'.repeat(249)}`;
  const clientName = `app-${'y'.repeat(249)}`;
  const server = identityServer(longNs, name, 'pg');
  // The database beside the suite's cluster: the cleanup finalizer lists it by the server's label.
  const database = { ...server.spec.database, namespace: ns, name: 'kc_long_names' };
  await env.apply({ ...server, spec: { ...server.spec, database } } as never);
  const ready = await waitStatus(
    env,
    'identityservers',
    longNs,
    name,
    600_000,
    (st) => st.phase === 'Ready',
    'to be Ready',
  );
  assert.equal(ready.metadata.finalizers, ['realmforge.dev/cleanup']);
  await env.apply({
    apiVersion: 'realmforge.dev/v1',
    kind: 'IdentityRealm',
    metadata: { name: 'apps', namespace: longNs },
    spec: { serverRef: { name }, clientAuthorizationGrants: [longNs] },
  } as never);
  await waitStatus(
    env,
    'identityrealms',
    longNs,
    'apps',
    120_000,
    (st) => st.phase === 'Ready',
    'to be Ready',
  );
  await env.apply({
    apiVersion: 'realmforge.dev/v1',
    kind: 'IdentityClient',
    metadata: { name: clientName, namespace: longNs },
    spec: { realmRef: { name: 'apps' }, redirectUris: ['https://app.example.test/cb'] },
  } as never);
  const client = await waitStatus(
    env,
    'identityclients',
    longNs,
    clientName,
    120_000,
    (st) => st.phase === 'Ready',
    'to be Ready',
  );
  const secret = await env.core.readNamespacedSecret({
    namespace: longNs,
    name: client.status.credentialsSecret,
  });
  assert.ok(secret.data?.['client-secret'], 'the credentials Secret holds the secret');
  // Keycloak's admin API through the server's (shortened) Service and admin Secret.
  const secrets = await env.core.listNamespacedSecret({ namespace: longNs });
  const adminSecret = secrets.items.find((x) => x.metadata?.name?.endsWith('-admin-credentials'));
  const text = (k: string) => Buffer.from(adminSecret?.data?.[k] ?? '', 'base64').toString('utf8');
  const kc = keycloakAdminApi(
    () => loadEndpointMap(env.state.endpointMapFile).resolve(ready.status.endpoints.internal),
    async () => ({ username: text('username'), password: text('password') }),
  );
  const clients = async () => (await kc('GET', `/apps/clients?clientId=${clientName}`)) as unknown[];
  assert.is((await clients()).length, 1, 'the client is in Keycloak');
  const del = (plural: string, n: string) =>
    env.request('DELETE', `/apis/realmforge.dev/v1/namespaces/${longNs}/${plural}/${n}`);
  const gone = (plural: string, n: string) =>
    eventually(`${plural} ${n.slice(0, 12)}... to be gone`, 120_000, async () =>
      (await getResource(env, plural, longNs, n)) ? undefined : true,
    );
  await del('identityclients', clientName);
  await gone('identityclients', clientName);
  assert.equal(await clients(), [], 'the client is gone from Keycloak');
  await del('identityrealms', 'apps');
  await gone('identityrealms', 'apps');
  assert.is(await kc('GET', '/apps'), undefined, 'the realm is gone from Keycloak');
  await del('identityservers', name);
  await gone('identityservers', name);
  const left = await env.request('GET', `/apis/postgresql.cnpg.io/v1/namespaces/${ns}/databases`);
  assert.not.ok(
    (left.body.items as { spec: { name: string } }[]).some((d) => d.spec.name === 'kc_long_names'),
    'its Database was deleted by the cleanup',
  );
});

test.run();
