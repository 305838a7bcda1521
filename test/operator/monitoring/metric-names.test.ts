// The alerts (chart/realmforge-operator/templates/prometheusrule.yaml) and the generated dashboard name only series
// the operator exports: every metric name in their PromQL is registered by createMetrics (histograms by their
// _bucket, _sum and _count series), so a renamed metric fails here rather than leaving an alert that never fires.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createMetrics } from '../../../src/operator/runtime/metrics.ts';

const root = join(import.meta.dirname, '..', '..', '..');
const chart = join(root, 'chart', 'realmforge-operator');

/** The series names createMetrics registers, with the histogram series. */
async function exported(): Promise<Set<string>> {
  const names = new Set<string>();
  for (const metric of await createMetrics({ process: true }).registry.getMetricsAsJSON()) {
    names.add(metric.name);
    if (String(metric.type) === 'histogram')
      for (const suffix of ['_bucket', '_sum', '_count']) names.add(metric.name + suffix);
  }
  return names;
}

/** The metric names a PromQL expression uses (the operator's and its process series all have these prefixes). */
function metricNamesIn(expr: string): string[] {
  return [...expr.matchAll(/\b(?:realmforge|process|nodejs)_[a-z0-9_]+\b/g)].map((m) => m[0]);
}

/** The PromQL of the alert template: each `expr:` value, one line or a `|-` block. */
function alertExpressions(): string[] {
  const text = readFileSync(join(chart, 'templates', 'prometheusrule.yaml'), 'utf8');
  return [...text.matchAll(/^( +)expr: (?:\|-\n((?:\1 +.*\n)+)|(.*)\n)/gm)].map((m) => m[2] ?? m[3]);
}

function dashboardExpressions(): string[] {
  const dashboard = JSON.parse(readFileSync(join(chart, 'dashboards', 'realmforge-operator.json'), 'utf8'));
  return dashboard.panels.flatMap((p: { targets?: { expr: string }[] }) =>
    (p.targets ?? []).map((t) => t.expr),
  );
}

function unknownNames(exprs: string[], names: Set<string>): string[] {
  return exprs.flatMap(metricNamesIn).filter((n) => !names.has(n));
}

test('a misspelled series is found', async () => {
  assert.equal(unknownNames(['sum(rate(realmforge_reconcile_error_total[5m]))'], await exported()), [
    'realmforge_reconcile_error_total',
  ]);
});

test('every alert names only exported series, and every alert has an expression', async () => {
  const exprs = alertExpressions();
  assert.is(exprs.length, 7, exprs.join('\n'));
  assert.ok(exprs.every((e) => metricNamesIn(e).length > 0));
  assert.equal(unknownNames(exprs, await exported()), []);
});

test('every dashboard query names only exported series', async () => {
  const exprs = dashboardExpressions();
  assert.ok(exprs.length >= 15, `${exprs.length} queries`);
  assert.ok(exprs.every((e) => metricNamesIn(e).length > 0));
  assert.equal(unknownNames(exprs, await exported()), []);
});

test.run();
