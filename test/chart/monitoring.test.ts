// The operator chart's PrometheusRule, checked by the pinned promtool (built from Go like helm): rendered only when
// the cluster serves the Prometheus Operator kinds (or when forced), valid for `promtool check rules`, and each alert
// unit-tested with `promtool test rules`: it fires on the series of its symptom and stays quiet on the steady state
// recorded from a real operator (fixtures/operator-metrics.txt, written by RECORD_OPERATOR_METRICS=1 in the
// operator-monitoring e2e suite).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { prometheusBinaries } from '../../scripts/testenv/prometheus.ts';
import { alertCases, recordedSeries } from './alert-cases.ts';
import { find, type Obj, operatorChart, parseObjects, template } from './helm-cli.ts';

const fixtures = join(import.meta.dirname, 'fixtures');
const crds = [
  '--api-versions=monitoring.coreos.com/v1/PrometheusRule',
  '--api-versions=monitoring.coreos.com/v1/ServiceMonitor',
];
const kinds = (objects: Obj[]) => objects.map((o) => o.kind).filter((k) => /Prometheus|Monitor/.test(k));
const scratch = mkdtempSync(join(tmpdir(), 'realmforge-alerts-'));

/** The rendered PrometheusRule's spec as a rule file. */
async function ruleFile(args: string[]): Promise<string> {
  const rule = find(
    parseObjects(await template(operatorChart, args)),
    'PrometheusRule',
    'realmforge-operator',
  );
  const file = join(scratch, `rules-${args.length}.yaml`);
  writeFileSync(file, JSON.stringify(rule.spec));
  return file;
}

async function promtool(args: string[]): Promise<{ code: number; output: string }> {
  const r = spawnSync((await prometheusBinaries()).promtool, args, { encoding: 'utf8' });
  return { code: r.status ?? 1, output: r.stdout + r.stderr };
}

test('rendered with the Prometheus Operator CRDs, left out without them, forced either way', async () => {
  assert.equal(kinds(parseObjects(await template(operatorChart))), []);
  assert.equal(kinds(parseObjects(await template(operatorChart, crds))), [
    'PrometheusRule',
    'ServiceMonitor',
  ]);
  const off = ['--set=prometheusRule.enabled=false', '--set=metrics.serviceMonitor.enabled=false'];
  assert.equal(kinds(parseObjects(await template(operatorChart, [...crds, ...off]))), []);
  const on = ['--set=prometheusRule.enabled=true'];
  assert.equal(kinds(parseObjects(await template(operatorChart, on))), ['PrometheusRule']);
});

test('the memory alert compares with resources.limits.memory in bytes', async () => {
  const expr = async (args: string[]) => {
    const rule = find(
      parseObjects(await template(operatorChart, [...crds, ...args])),
      'PrometheusRule',
      'realmforge-operator',
    );
    return rule.spec.groups[0].rules.find((r: { alert: string }) => r.alert === 'RealmforgeMemoryNearLimit')
      ?.expr;
  };
  assert.match(await expr([]), / > 0\.9 \* 268435456$/);
  assert.match(
    await expr(['--set=resources.limits.memory=1Gi', '--set-json=prometheusRule.memory.ratio=0.8']),
    / > 0\.8 \* 1073741824$/,
  );
  assert.match(await expr(['--set=resources.limits.memory=500M']), / > 0\.9 \* 500000000$/);
});

test('the dashboard ConfigMap carries the generated JSON under the sidecar label, its value configurable', async () => {
  const json = readFileSync(join(operatorChart, 'dashboards', 'realmforge-operator.json'), 'utf8');
  const render = async (args: string[]) =>
    parseObjects(await template(operatorChart, args)).find((o) => o.kind === 'ConfigMap');
  assert.is(await render([]), undefined, 'off by default');
  const map = await render(['--set=grafanaDashboard.enabled=true']);
  assert.is(map?.metadata.labels?.grafana_dashboard, '1');
  assert.is(map?.data['realmforge-operator.json'], json.trimEnd());
  assert.equal(JSON.parse(map?.data['realmforge-operator.json']).uid, 'realmforge-operator');
  const custom = await render([
    '--set=grafanaDashboard.enabled=true,grafanaDashboard.labelValue=ops',
    '--set=grafanaDashboard.folder=Identity',
  ]);
  assert.is(custom?.metadata.labels?.grafana_dashboard, 'ops');
  assert.is(
    (custom?.metadata as { annotations?: Record<string, string> })?.annotations?.grafana_folder,
    'Identity',
  );
});

test('promtool check rules passes on the default and the fast PrometheusRule', async () => {
  for (const args of [crds, ['-f', join(fixtures, 'fast-alerts.values.yaml')]]) {
    const r = await promtool(['check', 'rules', await ruleFile(args)]);
    assert.is(r.code, 0, r.output);
    assert.match(r.output, /SUCCESS: 7 rules found/);
  }
});

test('promtool test rules: each alert fires on its symptom and stays quiet on the recorded steady state', async () => {
  const rules = await ruleFile(['-f', join(fixtures, 'fast-alerts.values.yaml')]);
  const steady = recordedSeries(readFileSync(join(fixtures, 'operator-metrics.txt'), 'utf8'));
  const file = join(scratch, 'tests.yaml');
  writeFileSync(
    file,
    JSON.stringify({ rule_files: [rules], evaluation_interval: '5s', tests: alertCases(steady) }),
  );
  const r = await promtool(['test', 'rules', file]);
  assert.is(r.code, 0, r.output);
});

test('promtool test rules fails when an alert is expected on the steady state (the tests can fail)', async () => {
  const rules = await ruleFile(['-f', join(fixtures, 'fast-alerts.values.yaml')]);
  const steady = recordedSeries(readFileSync(join(fixtures, 'operator-metrics.txt'), 'utf8'));
  const wrong = {
    interval: steady.interval,
    input_series: steady.series,
    alert_rule_test: [
      {
        eval_time: '2m',
        alertname: 'RealmforgeNoLeader',
        exp_alerts: [{ exp_labels: { severity: 'critical', job: 'realmforge-operator' } }],
      },
    ],
  };
  const file = join(scratch, 'wrong.yaml');
  writeFileSync(file, JSON.stringify({ rule_files: [rules], evaluation_interval: '5s', tests: [wrong] }));
  const r = await promtool(['test', 'rules', file]);
  assert.is(r.code, 1, r.output);
  assert.match(r.output, /RealmforgeNoLeader/);
});

test.run();
