// The REST KubeClient against an API server on 127.0.0.1: paths come from discovery (CNPG kinds included),
// server-side apply is sent as the API server expects it, lists are paged, and statuses become typed errors.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { RealmforgeError } from '../../../src/core/errors.ts';
import type { KubeObject } from '../../../src/operator/compile/kube-object.ts';
import {
  discoveryRetryMs,
  groupVersionPath,
  resourcePath,
} from '../../../src/operator/runtime/kube-resources.ts';
import { restKubeClient } from '../../../src/operator/runtime/kube-rest-client.ts';
import { discovery, fakeApiServer, json, status } from './fake-api-server.ts';

test('paths: the core group under /api, others under /apis; namespaced or not, subresources last', () => {
  assert.is(groupVersionPath('v1'), '/api/v1');
  assert.is(groupVersionPath('postgresql.cnpg.io/v1'), '/apis/postgresql.cnpg.io/v1');
  const db = { plural: 'databases', namespaced: true };
  assert.is(resourcePath('postgresql.cnpg.io/v1', db), '/apis/postgresql.cnpg.io/v1/databases');
  assert.is(
    resourcePath('postgresql.cnpg.io/v1', db, { namespace: 'data', name: 'kc-keycloak' }),
    '/apis/postgresql.cnpg.io/v1/namespaces/data/databases/kc-keycloak',
  );
  assert.is(
    resourcePath(
      'realmforge.dev/v1',
      { plural: 'identityservers', namespaced: true },
      {
        namespace: 'id',
        name: 'kc',
        subresource: 'status',
      },
    ),
    '/apis/realmforge.dev/v1/namespaces/id/identityservers/kc/status',
  );
  assert.is(
    resourcePath('v1', { plural: 'namespaces', namespaced: false }, { namespace: 'ignored', name: 'a b' }),
    '/api/v1/namespaces/a%20b',
  );
});

test('get and apply find their path through discovery, once per group-version', async () => {
  const api = await fakeApiServer((req, res) => {
    if (req.method === 'GET' && req.path === '/apis/postgresql.cnpg.io/v1/namespaces/data/clusters/pg')
      return json(res, 200, {
        apiVersion: 'postgresql.cnpg.io/v1',
        kind: 'Cluster',
        metadata: { name: 'pg' },
      });
    if (req.method === 'PATCH')
      return json(res, 200, { ...req.body, metadata: { ...req.body.metadata, uid: 'u1' } });
  });
  try {
    const kube = restKubeClient(api.transport, api.resources, api.clock);
    const cluster = await kube.get({
      apiVersion: 'postgresql.cnpg.io/v1',
      kind: 'Cluster',
      namespace: 'data',
      name: 'pg',
    });
    assert.is(cluster?.metadata.name, 'pg');
    const missing = await kube.get({
      apiVersion: 'postgresql.cnpg.io/v1',
      kind: 'Cluster',
      namespace: 'data',
      name: 'x',
    });
    assert.is(missing, undefined, '404 is absent, not an error');
    const db: KubeObject = {
      apiVersion: 'postgresql.cnpg.io/v1',
      kind: 'Database',
      metadata: { name: 'kc-keycloak', namespace: 'data' },
      spec: { cluster: { name: 'pg' } },
    };
    const stored = await kube.apply(db);
    assert.is(stored.metadata.uid, 'u1');
    const patch = api.calls().find((r) => r.method === 'PATCH');
    assert.is(patch?.path, '/apis/postgresql.cnpg.io/v1/namespaces/data/databases/kc-keycloak');
    assert.is(patch?.query.get('fieldManager'), 'realmforge');
    assert.is(patch?.query.get('force'), 'true');
    assert.is(patch?.headers['content-type'], 'application/apply-patch+yaml');
    assert.is(patch?.headers.authorization, 'Bearer test-token');
    assert.equal(patch?.body, db);
    const discoveries = api.requests.filter((r) => r.path === '/apis/postgresql.cnpg.io/v1');
    assert.is(discoveries.length, 1, 'discovery is cached per group-version');
  } finally {
    await api.close();
  }
});

test('status is applied on the status subresource; delete is in the background and tolerates 404', async () => {
  const api = await fakeApiServer((req, res) => {
    if (req.method === 'PATCH') return json(res, 200, req.body);
    if (req.method === 'DELETE' && req.path.endsWith('/gone')) return false;
    if (req.method === 'DELETE') return json(res, 200, status(200, 'deleted'));
  });
  try {
    const kube = restKubeClient(api.transport, api.resources, api.clock);
    const ref = { apiVersion: 'realmforge.dev/v1', kind: 'IdentityServer', namespace: 'id', name: 'kc' };
    await kube.applyStatus(ref, { phase: 'Ready' });
    await kube.delete({ apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'id', name: 'kc' });
    await kube.delete({ apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'id', name: 'gone' });
    const [patch, del] = api.calls();
    assert.is(patch.path, '/apis/realmforge.dev/v1/namespaces/id/identityservers/kc/status');
    assert.equal(patch.body, {
      apiVersion: ref.apiVersion,
      kind: ref.kind,
      metadata: { name: 'kc', namespace: 'id' },
      status: { phase: 'Ready' },
    });
    assert.is(patch.query.get('fieldManager'), 'realmforge');
    assert.is(del.path, '/apis/apps/v1/namespaces/id/deployments/kc');
    assert.is(del.query.get('propagationPolicy'), 'Background');
  } finally {
    await api.close();
  }
});

test('list pages through continue tokens and sets apiVersion and kind on every item', async () => {
  const api = await fakeApiServer((req, res) => {
    if (req.path !== '/api/v1/namespaces/id/secrets') return false;
    const page = req.query.get('continue') ? 2 : 1;
    return json(res, 200, {
      metadata: page === 1 ? { continue: 'next' } : {},
      items: [{ metadata: { name: `s${page}`, namespace: 'id' } }],
    });
  });
  try {
    const kube = restKubeClient(api.transport, api.resources, api.clock);
    const items = await kube.list({ apiVersion: 'v1', kind: 'Secret' }, 'id', 'a=b');
    assert.equal(
      items.map((o) => `${o.apiVersion} ${o.kind} ${o.metadata.name}`),
      ['v1 Secret s1', 'v1 Secret s2'],
    );
    const calls = api.calls();
    assert.equal(
      calls.map((c) => [c.query.get('labelSelector'), c.query.get('limit'), c.query.get('continue')]),
      [
        ['a=b', '500', null],
        ['a=b', '500', 'next'],
      ],
    );
  } finally {
    await api.close();
  }
});

test('HTTP errors keep their typed form and name the object and the server message', async () => {
  const answers: Record<string, [number, string]> = {
    forbidden: [403, 'secrets "forbidden" is forbidden: User "system:serviceaccount:x:y" cannot get'],
    conflict: [409, 'the object has been modified'],
    invalid: [422, 'spec.replicas: Invalid value'],
    broken: [500, 'etcdserver: request timed out'],
  };
  const api = await fakeApiServer((req, res) => {
    const name = req.path.split('/').pop() ?? '';
    const [code, message] = answers[name] ?? [];
    return code ? json(res, code, status(code, message)) : false;
  });
  try {
    const kube = restKubeClient(api.transport, api.resources, api.clock);
    const cases: [string, string][] = [
      ['forbidden', 'auth'],
      ['conflict', 'conflict'],
      ['invalid', 'validation'],
      ['broken', 'transient'],
    ];
    for (const [name, kind] of cases) {
      const error = await kube
        .apply({ apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace: 'id' } })
        .catch((e) => e);
      assert.instance(error, RealmforgeError);
      assert.is(error.kind, kind, name);
      assert.ok(error.message.startsWith(`applying Secret id/${name}: `), error.message);
      assert.ok(error.message.includes(answers[name][1]), error.message);
    }
  } finally {
    await api.close();
  }
});

test('a type the server does not serve: reads find nothing, applies say which CRD is missing, and discovery is asked again later', async () => {
  const api = await fakeApiServer(() => false);
  try {
    const kube = restKubeClient(api.transport, api.resources, api.clock);
    const type = { apiVersion: 'example.com/v1', kind: 'Widget' };
    assert.is(await kube.get({ ...type, namespace: 'a', name: 'w' }), undefined);
    assert.equal(await kube.list(type, 'a'), []);
    await kube.delete({ ...type, namespace: 'a', name: 'w' });
    const error = await kube.apply({ ...type, metadata: { name: 'w', namespace: 'a' } }).catch((e) => e);
    assert.is(error.kind, 'not_found');
    assert.match(
      error.message,
      /does not serve Widget \(example\.com\/v1\); install its CustomResourceDefinition/,
    );
    const asked = () => api.requests.filter((r) => r.path === '/apis/example.com/v1').length;
    assert.is(asked(), 1, 'a missing group-version is cached');
    discovery['example.com/v1'] = { Widget: ['widgets', true] };
    api.clock.advance(discoveryRetryMs);
    assert.is(await kube.get({ ...type, namespace: 'a', name: 'w' }), undefined);
    assert.is(asked(), 2, 'and looked up again after the retry interval');
    assert.ok(api.calls().some((r) => r.path === '/apis/example.com/v1/namespaces/a/widgets/w'));
  } finally {
    delete discovery['example.com/v1'];
    await api.close();
  }
});

test('an unreachable API server is a transient error naming the server', async () => {
  const api = await fakeApiServer(() => false);
  await api.close();
  const { kubeTransport } = await import('../../../src/operator/runtime/kube-transport.ts');
  const transport = kubeTransport({
    server: api.url,
    insecureSkipTlsVerify: false,
    impersonation: {},
    authorization: async () => undefined,
    refresh: () => {},
    source: 'kubeconfig /tmp/k (context c)',
  });
  const error = await transport.request('GET', '/api/v1').catch((e) => e);
  assert.is(error.kind, 'transient');
  assert.ok(error.message.includes(`cannot reach the API server ${api.url} (kubeconfig /tmp/k (context c))`));
  await transport.close();
});

test.run();
