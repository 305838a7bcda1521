// The control plane is the real one: /readyz, RBAC enforced for a ServiceAccount, owner-reference garbage
// collection and the Deployment/ReplicaSet controllers of kube-controller-manager.
import { request } from 'node:https';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { eventually, type TestEnv, testEnv } from '../../scripts/testenv/harness.ts';

let env: TestEnv;
test.before(async () => {
  env = await testEnv();
});
test.after(async () => {
  await env?.cleanup();
});

/** GET with only a bearer token (no client certificate), as a pod's ServiceAccount would call. */
function getWithToken(url: string, token: string, ca: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { authorization: `Bearer ${token}` }, ca }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

test('the API server answers /readyz ok over TLS with the admin client certificate', async () => {
  const res = await env.request('GET', '/readyz');
  assert.is(res.status, 200);
  assert.is(res.body, 'ok');
});

test('RBAC is on: a ServiceAccount token without bindings is forbidden, and allowed once bound', async () => {
  const ns = await env.namespace('rbac');
  await env.core.createNamespacedServiceAccount({ namespace: ns, body: { metadata: { name: 'nobody' } } });
  const tr = await env.core.createNamespacedServiceAccountToken({
    namespace: ns,
    name: 'nobody',
    body: { spec: { audiences: ['https://kubernetes.default.svc.cluster.local'], expirationSeconds: 600 } },
  });
  const token = tr.status?.token ?? '';
  assert.ok(token.length > 20, 'a TokenRequest returns a token');
  const { readFileSync } = await import('node:fs');
  const ca = readFileSync(`${env.state.runDir}/pki/ca.crt`);
  const url = `${env.state.apiserverUrl}/api/v1/namespaces/${ns}/pods`;
  assert.is(await getWithToken(url, token, ca), 403, 'no binding: forbidden');
  assert.is(await getWithToken(url, 'not-a-token', ca), 401, 'a bad token is unauthenticated');
  await env.request('POST', `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/rolebindings`, {
    metadata: { name: 'nobody-view' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
    subjects: [{ kind: 'ServiceAccount', name: 'nobody', namespace: ns }],
  });
  await eventually('the binding to take effect', 10_000, async () =>
    (await getWithToken(url, token, ca)) === 200 ? true : undefined,
  );
});

test('deleting an owner garbage-collects its children (kube-controller-manager runs)', async () => {
  assert.ok(env.state.controllerManager, 'kube-controller-manager is part of the environment');
  const ns = await env.namespace('gc');
  const owner = await env.core.createNamespacedConfigMap({
    namespace: ns,
    body: { metadata: { name: 'owner' } },
  });
  const ref = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    name: 'owner',
    uid: owner.metadata!.uid!,
    blockOwnerDeletion: true,
  };
  await env.core.createNamespacedConfigMap({
    namespace: ns,
    body: { metadata: { name: 'child', ownerReferences: [ref] } },
  });
  await env.core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'bystander' } } });
  await env.core.deleteNamespacedConfigMap({ namespace: ns, name: 'owner', propagationPolicy: 'Background' });
  await eventually('the child ConfigMap to be collected', 90_000, async () => {
    const names = (await env.core.listNamespacedConfigMap({ namespace: ns })).items.map(
      (c) => c.metadata?.name,
    );
    return names.includes('child') ? undefined : names;
  });
  const left = (await env.core.listNamespacedConfigMap({ namespace: ns })).items.map((c) => c.metadata?.name);
  assert.ok(left.includes('bystander'), 'an object without owner references stays');
});

test('the Deployment controller creates a ReplicaSet and its pod', async () => {
  const ns = await env.namespace('deploy');
  const labels = { app: 'pause' };
  await env.apps.createNamespacedDeployment({
    namespace: ns,
    body: {
      metadata: { name: 'pause' },
      spec: {
        replicas: 1,
        selector: { matchLabels: labels },
        template: {
          metadata: { labels },
          spec: { containers: [{ name: 'pause', image: 'registry.k8s.io/pause:3.10' }] },
        },
      },
    },
  });
  const rs = await eventually('a ReplicaSet', 60_000, async () => {
    const items = (await env.apps.listNamespacedReplicaSet({ namespace: ns })).items;
    return items.length ? items : undefined;
  });
  assert.is(rs[0].metadata?.ownerReferences?.[0]?.kind, 'Deployment');
  const pods = await eventually('a pod', 60_000, async () => {
    const items = (await env.core.listNamespacedPod({ namespace: ns })).items;
    return items.length ? items : undefined;
  });
  assert.is(pods[0].metadata?.ownerReferences?.[0]?.kind, 'ReplicaSet');
  assert.not.ok(pods[0].spec?.nodeName, 'a pod the process kubelet does not run stays unscheduled');
});

test.run();
