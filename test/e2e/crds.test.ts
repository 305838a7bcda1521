// The API server validates what the operator writes: its own CRDs (schema and CEL rules) and CNPG's Database.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { installCrds, readCrds, realmforgeCrdFiles } from '../../scripts/testenv/crds.ts';
import { eventually, type TestEnv, testEnv } from '../../scripts/testenv/harness.ts';
import { canonicalQuantity } from '../../src/operator/compile/quantity.ts';

let env: TestEnv;
test.before(async () => {
  env = await testEnv();
});
test.after(async () => {
  await env?.cleanup();
});

const server = (ns: string, name: string, tag: string) => ({
  apiVersion: 'realmforge.dev/v1',
  kind: 'IdentityServer',
  metadata: { name, namespace: ns },
  spec: { image: { tag }, database: { cluster: 'keycloak-db' } },
});

const applyStrict = (path: string, body: unknown) =>
  env.request(
    'PATCH',
    `${path}?fieldManager=realmforge-e2e&fieldValidation=Strict&force=true`,
    body,
    'application/apply-patch+yaml',
  );

test('the operator CRDs from dist-manifests/crds install and become Established', async () => {
  const files = realmforgeCrdFiles();
  assert.ok(files.length >= 3, `dist-manifests/crds holds the three CRDs (found ${files.length})`);
  const crds = readCrds(files);
  await installCrds(env.state.kubeconfig, crds);
  const names = crds.map((c) => c.metadata?.name).sort();
  assert.equal(names, [
    'identityclients.realmforge.dev',
    'identityrealms.realmforge.dev',
    'identityservers.realmforge.dev',
  ]);
  for (const name of names) {
    const res = await env.request('GET', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${name}`);
    const established = res.body.status.conditions.find((c: { type: string }) => c.type === 'Established');
    assert.is(established?.status, 'True', `${name} is Established`);
  }
});

test('an IdentityServer with tag 24.0.0 is rejected by the CEL rule; 26.x is accepted', async () => {
  const ns = await env.namespace('cel');
  const path = `/apis/realmforge.dev/v1/namespaces/${ns}/identityservers`;
  const rejected = await applyStrict(`${path}/old`, server(ns, 'old', '24.0.0'));
  assert.is(rejected.status, 422, JSON.stringify(rejected.body));
  assert.match(rejected.body.message, '25.0.0');
  assert.match(rejected.body.message, 'spec.image.tag');
  const accepted = await applyStrict(`${path}/new`, server(ns, 'new', '26.7.3'));
  assert.ok([200, 201].includes(accepted.status), JSON.stringify(accepted.body));
});

test('a pre-release of 25.0.0 is below the minimum; one of 25.0.1 is accepted', async () => {
  const ns = await env.namespace('cel-pre');
  const path = `/apis/realmforge.dev/v1/namespaces/${ns}/identityservers`;
  const rc = await applyStrict(`${path}/rc`, server(ns, 'rc', '25.0.0-rc1'));
  assert.is(rc.status, 422, JSON.stringify(rc.body));
  assert.match(rc.body.message, 'is a pre-release of 25.0.0');
  const next = await applyStrict(`${path}/next`, server(ns, 'next', '25.0.1-rc1'));
  assert.ok([200, 201].includes(next.status), JSON.stringify(next.body));
});

test('identity fields are immutable: the API server refuses a change with the CEL message', async () => {
  const ns = await env.namespace('cel-imm');
  const realms = `/apis/realmforge.dev/v1/namespaces/${ns}/identityrealms`;
  const realm = (realmName?: string, name = 'apps') => ({
    apiVersion: 'realmforge.dev/v1',
    kind: 'IdentityRealm',
    metadata: { name, namespace: ns },
    spec: { serverRef: { name: 'kc' }, ...(realmName ? { realmName } : {}) },
  });
  assert.ok([200, 201].includes((await applyStrict(`${realms}/apps`, realm('one'))).status));
  for (const changed of [realm('two'), realm(undefined)]) {
    const res = await applyStrict(`${realms}/apps`, changed);
    assert.is(res.status, 422, JSON.stringify(res.body));
    assert.match(res.body.message, 'spec.realmName is immutable');
    assert.match(res.body.message, 'create a new IdentityRealm');
  }
  const moved = await applyStrict(`${realms}/apps`, {
    ...realm('one'),
    spec: { serverRef: { name: 'other' }, realmName: 'one' },
  });
  assert.is(moved.status, 422, JSON.stringify(moved.body));
  assert.match(moved.body.message, 'spec.serverRef is immutable');
  assert.ok([200, 201].includes((await applyStrict(`${realms}/apps`, realm('one'))).status), 'same is fine');

  const master = await applyStrict(`${realms}/master`, realm(undefined, 'master'));
  assert.is(master.status, 422, JSON.stringify(master.body));
  assert.match(master.body.message, 'an IdentityRealm named master');
  const renamed = await applyStrict(`${realms}/master`, realm('not-master', 'master'));
  assert.ok([200, 201].includes(renamed.status), JSON.stringify(renamed.body));

  const clients = `/apis/realmforge.dev/v1/namespaces/${ns}/identityclients`;
  const client = (clientId: string) => ({
    apiVersion: 'realmforge.dev/v1',
    kind: 'IdentityClient',
    metadata: { name: 'web', namespace: ns },
    spec: { realmRef: { name: 'apps' }, clientId },
  });
  assert.ok([200, 201].includes((await applyStrict(`${clients}/web`, client('web'))).status));
  const res = await applyStrict(`${clients}/web`, client('web-2'));
  assert.is(res.status, 422, JSON.stringify(res.body));
  assert.match(res.body.message, 'spec.clientId is immutable');

  const servers = `/apis/realmforge.dev/v1/namespaces/${ns}/identityservers`;
  assert.ok([200, 201].includes((await applyStrict(`${servers}/kc`, server(ns, 'kc', '26.0.7'))).status));
  const otherDb = server(ns, 'kc', '26.0.7');
  otherDb.spec.database = { cluster: 'elsewhere' };
  const db = await applyStrict(`${servers}/kc`, otherDb);
  assert.is(db.status, 422, JSON.stringify(db.body));
  assert.match(db.body.message, 'spec.database.cluster and spec.database.namespace are immutable');
});

test('quantities are stored in the form compile/quantity.ts writes (1000m as 1, 1024Mi as 1Gi)', async () => {
  const ns = await env.namespace('quantity');
  const inputs = [
    '1000m',
    '1024Mi',
    '500m',
    '1.5',
    '0.5Gi',
    '1.5Gi',
    '2048Ki',
    '1000',
    '1200',
    '1e3',
    '1.5e3',
  ];
  inputs.push('12e6', '1000M', '0.1', '1024', '512Ki', '0.3Ki', '0');
  for (const [i, input] of inputs.entries()) {
    const body = {
      apiVersion: 'v1',
      kind: 'ResourceQuota',
      metadata: { name: `q${i}`, namespace: ns },
      spec: { hard: { 'requests.cpu': input } },
    };
    const res = await applyStrict(`/api/v1/namespaces/${ns}/resourcequotas/q${i}`, body);
    assert.ok([200, 201].includes(res.status), JSON.stringify(res.body));
    assert.is(
      res.body.spec.hard['requests.cpu'],
      canonicalQuantity(input),
      `${input} as kube-apiserver stores it`,
    );
  }
});

test('a CNPG Database with an unknown field is rejected; a valid one is accepted', async () => {
  const ns = await env.namespace('cnpg');
  const path = `/apis/postgresql.cnpg.io/v1/namespaces/${ns}/databases`;
  const db = (name: string, spec: Record<string, unknown>) => ({
    apiVersion: 'postgresql.cnpg.io/v1',
    kind: 'Database',
    metadata: { name, namespace: ns },
    spec: { name: 'keycloak', owner: 'keycloak', cluster: { name: 'keycloak-db' }, ...spec },
  });
  // A create with strict field validation, as kubectl sends it, gets the schema's 400.
  const bad = await env.request('POST', `${path}?fieldValidation=Strict`, db('bad', { ownr: 'typo' }));
  assert.is(bad.status, 400, JSON.stringify(bad.body));
  assert.match(bad.body.message, /unknown field "spec.ownr"/);
  // Server-side apply refuses the same object before it is stored (the API server answers 500 there).
  const badApply = await applyStrict(`${path}/bad`, db('bad', { ownr: 'typo' }));
  assert.ok(badApply.status >= 400, JSON.stringify(badApply.body));
  assert.match(badApply.body.message, /\.spec\.ownr: field not declared in schema/);
  assert.is((await env.request('GET', `${path}/bad`)).status, 404);
  const good = await applyStrict(`${path}/good`, db('good', {}));
  assert.ok([200, 201].includes(good.status), JSON.stringify(good.body));
  const missing = await applyStrict(`${path}/nocluster`, {
    ...db('nocluster', {}),
    spec: { name: 'x', owner: 'y' },
  });
  assert.is(missing.status, 422, 'spec.cluster is required by the CRD schema');
  await eventually('the valid Database to be readable', 5000, async () =>
    (await env.request('GET', `${path}/good`)).status === 200 ? true : undefined,
  );
});

test.run();
