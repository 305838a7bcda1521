// The chart's alerts and dashboard against a real Prometheus scraping the real operator: a steady state fires
// nothing, a realm stuck on a missing grant fires the stuck-resource alert naming it, Keycloak refused by the fault
// proxy fires the Keycloak alert within its window and `for` and resolves once it answers again, and every query of
// the dashboard returns data. The alerts run with test/chart/fixtures/fast-alerts.values.yaml (seconds, not minutes).
// RECORD_OPERATOR_METRICS=1 also records the steady state's scrapes into test/chart/fixtures/operator-metrics.txt,
// the input of the promtool rule tests (test/chart/monitoring.test.ts).
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { eventually, type TestEnv } from '../../scripts/testenv/harness.ts';
import { waitStatus } from '../../scripts/testenv/identity-fixtures.ts';
import type { OperatorProcess } from '../../scripts/testenv/operator-process.ts';
import { type Alert, type RunningPrometheus, startPrometheus } from '../../scripts/testenv/prometheus.ts';
import { find, operatorChart, parseObjects, repo, template } from '../chart/helm-cli.ts';
import { faultProxy } from './helpers/fault-proxy.ts';
import { harnessServer } from './helpers/harness-server.ts';
import { type OperatorSuite, operatorSuite } from './helpers/operator-suite.ts';

const fixtures = join(repo, 'test', 'chart', 'fixtures');
let suite: OperatorSuite;
let env: TestEnv;
let operator: OperatorProcess;
let proxy: Awaited<ReturnType<typeof faultProxy>>;
let prometheus: RunningPrometheus;
let ns: string;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ready = (s: { phase?: string }) => s.phase === 'Ready';
const firing = async (name: string) =>
  (await prometheus.alerts()).filter((a) => a.labels.alertname === name && a.state === 'firing');

/** The chart's PrometheusRule with the fast values, as a Prometheus rule file. */
async function fastRules(): Promise<string> {
  const rendered = await template(operatorChart, ['-f', join(fixtures, 'fast-alerts.values.yaml')]);
  return JSON.stringify(find(parseObjects(rendered), 'PrometheusRule', 'realmforge-operator').spec);
}

test.before(async () => {
  // The server is the environment's own Keycloak behind the fault proxy: the alerts are about the operator's calls.
  suite = await operatorSuite('monitoring');
  ({ env, ns, operator } = suite);
  const harness = await harnessServer(env);
  suite.onClose(() => harness.forget(ns));
  proxy = await faultProxy(
    env.state.endpointMapFile,
    new URL(harness.url).host,
    join(tmpdir(), `realmforge-monitoring-${process.pid}.json`),
  );
  suite.onClose(() => proxy.close());
  prometheus = await startPrometheus({
    targets: [new URL(operator.metricsUrl).host],
    rules: await fastRules(),
  });
  suite.onClose(() => prometheus.stop());
  await harness.apply(ns, 'idp', proxy.url);
  await env.apply({
    apiVersion: 'realmforge.dev/v1',
    kind: 'IdentityRealm',
    metadata: { name: 'apps', namespace: ns },
    spec: { serverRef: { name: 'idp' }, clientAuthorizationGrants: [ns] },
  } as never);
  await env.apply({
    apiVersion: 'realmforge.dev/v1',
    kind: 'IdentityClient',
    metadata: { name: 'web', namespace: ns },
    spec: { realmRef: { name: 'apps' }, redirectUris: ['https://app.example.test/callback'] },
  } as never);
  await waitStatus(env, 'identityservers', ns, 'idp', 600_000, ready, 'to be Ready');
  await waitStatus(env, 'identityclients', ns, 'web', 180_000, ready, 'to be Ready');
});
test.after(() => suite?.close('SIGKILL'));

test('a steady state: Prometheus scrapes the operator and no alert fires', async () => {
  const up = await eventually('the operator to be scraped', 60_000, async () => {
    const samples = await prometheus.query('up{job="realmforge-operator"}');
    return samples.length > 0 && samples.every((s) => s.value[1] === '1') ? samples : undefined;
  });
  assert.is(up.length, 1);
  // Longer than every `for` and window of the fast values, while the server, realm and client resync every 5 s.
  const scrapes: string[] = [];
  const recording = process.env.RECORD_OPERATOR_METRICS === '1';
  const started = Date.now();
  for (let i = 0; i < (recording ? 13 : 3); i++) {
    if (recording) scrapes.push(`# scrape ${i} at +${Date.now() - started} ms\n${await operator.metrics()}`);
    await sleep(15_000);
  }
  const alerts = (await prometheus.alerts()).map((a: Alert) => `${a.labels.alertname} ${a.state}`);
  // Should one fire, what the operator counted and logged says why.
  const why = async () =>
    [
      ...(await operator.metrics())
        .split('\n')
        .filter((l) => l.startsWith('realmforge_keycloak_api_requests_total{')),
      ...operator
        .logs()
        .filter((l) => l.level === 'warn' || l.level === 'error')
        .slice(-20)
        .map((l) => JSON.stringify(l)),
    ].join('\n');
  assert.equal(alerts, [], `no alert pending or firing${alerts.length ? `\n${await why()}` : ''}`);
  // Proves the rules are evaluated: a rule whose expression fails would not list as ok.
  const rules = await fetch(`${prometheus.url}/api/v1/rules`).then((r) => r.json() as Promise<any>);
  const health = rules.data.groups.flatMap((g: any) => g.rules.map((r: any) => `${r.name} ${r.health}`));
  assert.is(health.length, 7, health.join(', '));
  assert.ok(
    health.every((h: string) => h.endsWith(' ok')),
    health.join(', '),
  );
  if (recording) writeFileSync(join(fixtures, 'operator-metrics.txt'), scrapes.join(''));
});

test('a realm stuck on a missing grant fires RealmforgeResourceNotReady with its namespace and name', async () => {
  const other = await env.namespace('monitoring-other');
  await env.apply({
    apiVersion: 'realmforge.dev/v1',
    kind: 'IdentityRealm',
    metadata: { name: 'stuck', namespace: other },
    spec: { serverRef: { name: 'idp', namespace: ns } },
  } as never);
  const [alert] = await eventually('RealmforgeResourceNotReady to fire for the realm', 90_000, async () => {
    const alerts = (await firing('RealmforgeResourceNotReady')).filter((a) => a.labels.name === 'stuck');
    return alerts.length ? alerts : undefined;
  });
  assert.equal(
    [alert?.labels.kind, alert?.labels.namespace, alert?.labels.name, alert?.labels.reason],
    ['IdentityRealm', other, 'stuck', 'NamespaceNotAuthorized'],
  );
  assert.match(String(alert?.annotations.summary), `IdentityRealm ${other}/stuck is not Ready`);
  assert.match(String(alert?.annotations.runbook_url), /docs\/operator\.md#realmforgeresourcenotready$/);
});

test('Keycloak refused: RealmforgeKeycloakUnavailable fires within its window and `for`, resolves once back', async () => {
  assert.equal(await firing('RealmforgeKeycloakUnavailable'), [], 'not firing before the outage');
  const started = Date.now();
  proxy.setMode({ kind: 'refuse' });
  let alert: Alert | undefined;
  try {
    // The fast values: a 1 m window, 20 s `for`, evaluated every 2 s; the failed calls' share passes one half
    // well within the window.
    [alert] = await eventually('RealmforgeKeycloakUnavailable to fire', 120_000, async () => {
      const alerts = await firing('RealmforgeKeycloakUnavailable');
      return alerts.length ? alerts : undefined;
    });
  } finally {
    proxy.setMode({ kind: 'pass' });
  }
  console.log(
    `monitoring: Keycloak alert fired ${Math.round((Date.now() - started) / 1000)} s after the outage`,
  );
  assert.is(alert?.labels.namespace, ns);
  assert.is(alert?.labels.severity, 'critical');
  const back = Date.now();
  await eventually('RealmforgeKeycloakUnavailable to resolve', 180_000, async () =>
    (await prometheus.alerts()).some((a) => a.labels.alertname === 'RealmforgeKeycloakUnavailable')
      ? undefined
      : true,
  );
  console.log(`monitoring: resolved ${Math.round((Date.now() - back) / 1000)} s after Keycloak was back`);
});

// Last: the stuck realm gives the not-Ready panel its series, the outage the Keycloak errors.
test('every query of the dashboard returns data', async () => {
  const dashboard = JSON.parse(
    readFileSync(join(operatorChart, 'dashboards', 'realmforge-operator.json'), 'utf8'),
  );
  const exprs: string[] = dashboard.panels.flatMap((p: any) => (p.targets ?? []).map((t: any) => t.expr));
  const empty: string[] = [];
  for (const expr of exprs) {
    const resolved = expr.replaceAll('$job', '.+').replaceAll('$__rate_interval', '2m');
    const samples = await prometheus.query(resolved);
    if (!samples.some((s) => s.value[1] !== 'NaN')) empty.push(expr);
  }
  assert.equal(empty, [], `${empty.length} of ${exprs.length} dashboard queries returned no data`);
});

test.run();
