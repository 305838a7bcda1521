// The API server validates what the operator writes: its own CRDs (schema and CEL rules) and CNPG's Database.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { installCrds, readCrds, realmforgeCrdFiles } from '../../scripts/testenv/crds.ts';
import { eventually, type TestEnv, testEnv } from '../../scripts/testenv/harness.ts';

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
