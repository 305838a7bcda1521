// `realmforge doctor` end to end against an API server on 127.0.0.1 (fake-cluster.ts): all OK on a healthy install,
// and each injected fault of issue #22 named with its cause; it only reads; --json matches its published schema.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { DoctorReport } from '../../../generated/types/operator/doctor-report.ts';
import { main } from '../../../src/operator/cli/main.ts';
import type { KubeObject } from '../../../src/operator/compile/kube-object.ts';
import { devRecordConfigMap } from '../../../src/operator/doctor/dev-record.ts';
import { runCli } from '../../helpers/run-cli.ts';
import { fakeCluster, healthyCluster } from './fake-cluster.ts';

const schema = JSON.parse(
  readFileSync(
    join(import.meta.dirname, '..', '..', '..', 'schemas', 'operator', 'doctor-report.schema.json'),
    'utf8',
  ),
);
const validate = new Ajv2020({ strict: true }).compile(schema);
const metrics = [
  'realmforge_leader 1',
  'realmforge_reconcile_errors_total{kind="IdentityServer"} 0',
  'realmforge_keycloak_api_rate_limit_queued{scope="global"} 0',
].join('\n');
const keycloakMetrics = [
  'vendor_statistics_approximate_entries{cache="realms",cache_manager="DefaultCacheManager",node="kc-0"} 66.0',
  'vendor_statistics_evictions{cache="realms",cache_manager="DefaultCacheManager",node="kc-0"} 0.0',
].join('\n');
const proxies = {
  'pods/realmforge-operator-5d9c-x2p4q:9090/proxy/metrics': metrics,
  '/proxy/health/ready': '{"status":"UP"}',
  'services/http:kc:9000/proxy/metrics': keycloakMetrics,
};

async function doctor(objects: KubeObject[], args: string[] = []) {
  const fake = await fakeCluster(objects, proxies);
  const kubeconfig = join(mkdtempSync(join(tmpdir(), 'doctor-')), 'kubeconfig');
  writeFileSync(
    kubeconfig,
    `apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "${fake.url}"}}]\nusers: [{name: u, user: {token: t}}]\ncontexts: [{name: x, context: {cluster: c, user: u}}]\ncurrent-context: x\n`,
  );
  try {
    const r = await runCli(main, ['doctor', '--json', `--kubeconfig=${kubeconfig}`, ...args]);
    assert.is(r.stderr, '');
    assert.equal(fake.writes, [], 'doctor sent a write');
    const report = JSON.parse(r.stdout) as DoctorReport;
    assert.ok(validate(report), JSON.stringify(validate.errors));
    return { code: r.code, report, failed: report.checks.filter((c) => c.status === 'FAIL') };
  } finally {
    await fake.close();
  }
}

function without(objects: KubeObject[], kind: string, name: string, namespace?: string): KubeObject[] {
  const left = objects.filter(
    (o) =>
      !(
        o.kind === kind &&
        o.metadata.name === name &&
        (namespace === undefined || o.metadata.namespace === namespace)
      ),
  );
  assert.is(left.length, objects.length - 1, `no ${kind} ${name} to remove`);
  return left;
}

test('a healthy install: every check OK, exit 0, and every verb the operator needs was reviewed', async () => {
  const { code, report } = await doctor(healthyCluster());
  const notOk = report.checks.filter((c) => c.status !== 'OK');
  assert.equal(notOk, []);
  assert.is(code, 0);
  const areas = new Set(report.checks.map((c) => c.area));
  for (const a of [
    'install',
    'operator',
    'rbac',
    'namespace-access',
    'metrics',
    'resources',
    'database',
    'keycloak',
  ])
    assert.ok(areas.has(a as never), `no ${a} check`);
  assert.match(report.checks.find((c) => c.area === 'rbac')?.message ?? '', /^all \d+ verbs/);
  assert.equal(
    report.checks.filter((c) => c.area === 'namespace-access').map((c) => c.subject),
    ['namespace id', 'namespace team'],
  );
  assert.equal(report.namespaces, ['id', 'team'], 'without --namespace, every namespace is named');
});

test("npm start's environment, told by its ConfigMap: the operator process and Keycloak checked, no FAIL, every namespace", async () => {
  // The operator and Keycloak's management port, on this machine as realmforge dev runs them: one server
  // stands for both, so its /metrics holds both's series.
  const local = createServer((req, res) => {
    const body = {
      '/healthz': 'ok',
      '/metrics': `${metrics}\n${keycloakMetrics}`,
      '/health/ready': '{"status":"UP"}',
    }[req.url ?? ''];
    res.writeHead(body ? 200 : 404).end(body ?? '');
  });
  await new Promise<void>((r) => local.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(local.address() as AddressInfo).port}`;
  const map = join(mkdtempSync(join(tmpdir(), 'doctor-map-')), 'endpoints.json');
  writeFileSync(map, JSON.stringify({ endpoints: { 'kc.id.svc:9000': url } }));
  const record = devRecordConfigMap('realmforge-system', { operatorUrl: url, endpointMap: map });
  const processOnly = healthyCluster().filter(
    (o) => !(o.kind === 'Deployment' || (o.kind === 'Pod' && o.metadata.namespace === 'realmforge-system')),
  );
  try {
    const { code, report, failed } = await doctor([...processOnly, record]);
    assert.equal(failed, []);
    assert.is(code, 0);
    const operator = report.checks.find((c) => c.area === 'operator');
    assert.equal([operator?.subject, operator?.status], [`operator at ${url}`, 'OK']);
    assert.match(
      operator?.message ?? '',
      /as recorded by realmforge dev \(ConfigMap realmforge-system\/realmforge-dev\)/,
    );
    assert.is(
      report.checks.find((c) => c.area === 'keycloak')?.status,
      'OK',
      'Keycloak reached through its map',
    );
    assert.equal(report.namespaces, ['id', 'team']);
    const { code: without } = await doctor(processOnly);
    assert.is(without, 1, 'without the record, the missing Deployment is a FAIL');
  } finally {
    local.close();
  }
});

const faults: [string, (o: KubeObject[]) => KubeObject[], string, RegExp][] = [
  [
    'CRD deleted',
    (o) => without(o, 'CustomResourceDefinition', 'identityrealms.realmforge.dev'),
    'CustomResourceDefinition identityrealms.realmforge.dev',
    /does not exist/,
  ],
  [
    'operator not running (scaled to 0)',
    (o) => {
      const d = o.find((x) => x.kind === 'Deployment') as KubeObject & { spec: { replicas: number } };
      d.spec.replicas = 0;
      d.status = { replicas: 0 };
      return without(o, 'Pod', 'realmforge-operator-5d9c-x2p4q');
    },
    'Deployment realmforge-system/realmforge-operator',
    /nothing reconciles/,
  ],
  [
    'a client namespace without the binding',
    (o) => without(o, 'RoleBinding', 'realmforge-operator-access', 'team'),
    'namespace team',
    /no RoleBinding in team binds ClusterRole keycloak-operator-namespace-access/,
  ],
  [
    'a server whose database cluster is missing',
    (o) => without(o, 'Cluster', 'pg'),
    'Cluster id/pg',
    /no CloudNativePG Cluster pg in id/,
  ],
  [
    'a realm in an ungranted namespace',
    (o) => {
      const realm = o.find((x) => x.kind === 'IdentityRealm') as KubeObject;
      realm.status = {
        phase: 'Pending',
        reason: 'NamespaceNotAuthorized',
        message: 'namespace id is not in spec.realmAuthorizationGrants of IdentityServer id/kc (other)',
        observedGeneration: 1,
      };
      return o;
    },
    'IdentityRealm id/acme',
    /NamespaceNotAuthorized namespace id is not in spec\.realmAuthorizationGrants/,
  ],
  [
    "the operator's ClusterRole missing a verb",
    (o) => {
      const role = o.find(
        (x) => x.kind === 'ClusterRole' && x.metadata.name === 'keycloak-operator',
      ) as KubeObject & { rules: { resources: string[]; verbs: string[] }[] };
      const rule = role.rules.find((r) => r.resources.includes('deployments'));
      if (!rule) throw new Error('no deployments rule in keycloak-operator');
      rule.verbs = rule.verbs.filter((v) => v !== 'delete');
      return o;
    },
    'delete deployments.apps',
    /ClusterRole keycloak-operator lacks this verb/,
  ],
];

for (const [name, inject, subject, cause] of faults) {
  test(`fault: ${name} is a FAIL naming its cause, exit 1`, async () => {
    const { code, failed } = await doctor(inject(healthyCluster()));
    assert.is(code, 1);
    const check = failed.find((c) => c.subject === subject);
    assert.ok(check, `no FAIL for ${subject}; got ${JSON.stringify(failed.map((c) => c.subject))}`);
    assert.match(`${check?.message} ${check?.cause}`, cause);
    assert.ok(check?.fix, 'a FAIL says what to do');
  });
}

test('--namespace narrows the resource checks to one namespace', async () => {
  const { report } = await doctor(healthyCluster(), ['--namespace=team']);
  assert.is(report.namespace, 'team');
  const resources = report.checks.filter((c) => c.area === 'resources').map((c) => c.subject);
  assert.equal(resources, ['IdentityClient team/web']);
  assert.equal(
    report.checks.filter((c) => c.area === 'namespace-access').map((c) => c.subject),
    ['namespace team'],
  );
});

test('the text report: one line per check, cause and fix under a FAIL, the summary last', async () => {
  const fake = await fakeCluster(without(healthyCluster(), 'Cluster', 'pg'), proxies);
  const kubeconfig = join(mkdtempSync(join(tmpdir(), 'doctor-')), 'kubeconfig');
  writeFileSync(
    kubeconfig,
    `clusters: [{name: c, cluster: {server: "${fake.url}"}}]\nusers: [{name: u, user: {token: t}}]\ncontexts: [{name: x, context: {cluster: c, user: u}}]\ncurrent-context: x\n`,
  );
  try {
    const r = await runCli(main, ['doctor', `--kubeconfig=${kubeconfig}`]);
    assert.is(r.code, 1);
    assert.match(r.stdout, /^realmforge doctor: \S+ \(every namespace: id, team\)\n/);
    assert.match(
      r.stdout,
      /\n {2}FAIL Cluster id\/pg: missing \(database of IdentityServer id\/kc\)\n {7}cause: no CloudNativePG Cluster pg in id/,
    );
    assert.match(r.stdout, /\n\d+ OK, 0 WARN, \d+ FAIL\n$/);
    assert.not.match(r.stdout, /c2VjcmV0|secret\b/, 'a Secret value leaked');
  } finally {
    await fake.close();
  }
});

test.run();
