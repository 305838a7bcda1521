// `npm run generate`: the operator's Grafana dashboard, built with the Grafana Foundation SDK's typed builders
// into chart/realmforge-operator/dashboards/ (the chart's sidecar ConfigMap reads it; it is also the file to import
// by hand). The operator's series are named by metricNames of src/operator/runtime/metrics.ts.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as common from '@grafana/grafana-foundation-sdk/common';
import * as dash from '@grafana/grafana-foundation-sdk/dashboard';
import * as prometheus from '@grafana/grafana-foundation-sdk/prometheus';
import * as stat from '@grafana/grafana-foundation-sdk/stat';
import * as timeseries from '@grafana/grafana-foundation-sdk/timeseries';
import { metricNames } from '../src/operator/runtime/metrics.ts';

export const dashboardDir = 'chart/realmforge-operator/dashboards';
export const dashboardFile = 'realmforge-operator.json';

const m = metricNames;
// biome-ignore lint/suspicious/noTemplateCurlyInString: Grafana's variable syntax
const datasource = { type: 'prometheus', uid: '${datasource}' };
/** The operator's series, narrowed to the chosen jobs. */
const sel = (name: string) => `${name}{job=~"$job"}`;
const rate = (name: string) => `rate(${sel(name)}[$__rate_interval])`;

/** One Prometheus query with its legend. */
function query(expr: string, legend: string, refId = 'A') {
  return new prometheus.DataqueryBuilder()
    .expr(expr)
    .legendFormat(legend)
    .refId(refId)
    .datasource(datasource);
}

/** A time series panel of one or more queries ([expr, legend] pairs). */
function graph(
  title: string,
  description: string,
  unit: string,
  queries: [string, string][],
  stacked = false,
) {
  const panel = new timeseries.PanelBuilder()
    .title(title)
    .description(description)
    .unit(unit)
    .datasource(datasource)
    .height(8)
    .span(8)
    .min(0)
    .legend(new common.VizLegendOptionsBuilder().displayMode(common.LegendDisplayMode.List).showLegend(true));
  if (stacked)
    panel.stacking(new common.StackingConfigBuilder().mode(common.StackingMode.Normal)).fillOpacity(30);
  queries.forEach(([expr, legend], i) => {
    panel.withTarget(query(expr, legend, String.fromCharCode(65 + i)));
  });
  return panel;
}

const quantile = (q: number, name: string, by: string) =>
  `histogram_quantile(${q}, sum by (${by}, le) (${rate(`${name}_bucket`)}))`;

/** The dashboard: resources, reconciles, Keycloak, the process. */
export function operatorDashboard(): dash.Dashboard {
  return new dash.DashboardBuilder('Realmforge operator')
    .uid('realmforge-operator')
    .description(
      'The Realmforge operator: resources by phase, reconciles, Keycloak admin calls, the process.',
    )
    .tags(['realmforge', 'keycloak', 'operator'])
    .editable()
    .time({ from: 'now-3h', to: 'now' })
    .refresh('1m')
    .withVariable(new dash.DatasourceVariableBuilder('datasource').label('Data source').type('prometheus'))
    .withVariable(
      new dash.QueryVariableBuilder('job')
        .label('Job')
        .datasource(datasource)
        .query(`label_values(${m.leader}, job)`)
        .definition(`label_values(${m.leader}, job)`)
        .multi(true)
        .includeAll(true)
        .allValue('.+')
        .refresh(dash.VariableRefresh.OnTimeRangeChanged),
    )
    .withRow(new dash.RowBuilder('Resources'))
    .withPanel(
      new stat.PanelBuilder()
        .title('Leader')
        .description(
          'Replicas holding the leader lease (1 = reconciling; 0 everywhere = nothing reconciles).',
        )
        .datasource(datasource)
        .height(8)
        .span(4)
        .withTarget(query(`sum(${sel(m.leader)})`, 'leaders')),
    )
    .withPanel(
      graph(
        'Resources by kind and phase',
        'As last reconciled.',
        'short',
        [[`sum by (kind, phase) (${sel(m.resourcesByPhase)})`, '{{kind}} {{phase}}']],
        true,
      ),
    )
    .withPanel(
      graph(
        'Resources not Ready by reason',
        'Each resource is named by realmforge_resource_not_ready.',
        'short',
        [[`sum by (kind, reason) (${sel(m.resourceNotReady)})`, '{{kind}} {{reason}}']],
        true,
      ),
    )
    .withRow(new dash.RowBuilder('Reconciles'))
    .withPanel(
      graph('Reconciles by kind and result', 'Reconciles per second.', 'ops', [
        [`sum by (kind, result) (${rate(m.reconcileTotal)})`, '{{kind}} {{result}}'],
      ]),
    )
    .withPanel(
      graph('Reconcile errors by kind', 'Failed reconciles per second (retried with backoff).', 'ops', [
        [`sum by (kind) (${rate(m.reconcileErrors)})`, '{{kind}}'],
      ]),
    )
    .withPanel(
      graph('Reconcile latency', 'Time one reconcile takes, by kind.', 's', [
        [quantile(0.5, m.reconcileDuration, 'kind'), '{{kind}} p50'],
        [quantile(0.99, m.reconcileDuration, 'kind'), '{{kind}} p99'],
      ]),
    )
    .withPanel(
      graph('Work queue depth', 'Keys waiting to be reconciled now, by kind.', 'short', [
        [`sum by (kind) (${sel(m.queueDepth)})`, '{{kind}}'],
      ]),
    )
    .withPanel(
      graph('Kubernetes API requests', 'Requests that reached the API server, by verb.', 'reqps', [
        [`sum by (verb) (${rate(m.kubeRequests)})`, '{{verb}}'],
      ]),
    )
    .withRow(new dash.RowBuilder('Keycloak'))
    .withPanel(
      graph(
        'Keycloak calls by status',
        'Admin API calls per second by HTTP status (error: no answer).',
        'reqps',
        [[`sum by (status) (${rate(m.keycloakRequests)})`, '{{status}}']],
        true,
      ),
    )
    .withPanel(
      graph(
        'Keycloak calls by kind',
        'Admin API calls per second by the kind whose reconcile made them.',
        'reqps',
        [[`sum by (kind, method) (${rate(m.keycloakRequestsByPath)})`, '{{kind}} {{method}}']],
        true,
      ),
    )
    .withPanel(
      graph('Token requests', 'Admin token requests (password grant) per second, by namespace.', 'reqps', [
        [`sum by (namespace) (${rate(m.keycloakTokens)})`, '{{namespace}}'],
      ]),
    )
    .withPanel(
      graph('Rate-limit waits', 'Time calls waited for a slot, and calls waiting now, by scope.', 's', [
        [quantile(0.9, m.rateLimitWait, 'scope'), '{{scope}} p90 wait'],
        [`sum by (scope) (${sel(m.rateLimitQueued)})`, '{{scope}} waiting'],
      ]),
    )
    .withRow(new dash.RowBuilder('Process'))
    .withPanel(
      graph('Memory', 'Resident memory and V8 heap in use, per replica.', 'bytes', [
        [sel('process_resident_memory_bytes'), '{{instance}} resident'],
        [sel('nodejs_heap_size_used_bytes'), '{{instance}} heap used'],
      ]),
    )
    .withPanel(
      graph('Event-loop lag', 'How late the event loop runs timers, per replica.', 's', [
        [sel('nodejs_eventloop_lag_p50_seconds'), '{{instance}} p50'],
        [sel('nodejs_eventloop_lag_p99_seconds'), '{{instance}} p99'],
      ]),
    )
    .build();
}

const root = join(import.meta.dirname, '..');

/** Writes the dashboard JSON into `dir`, formatted as `npm run lint` wants it. */
export function generateDashboard(dir: string): void {
  const formatted = execFileSync(
    join(root, 'node_modules', '.bin', 'biome'),
    ['format', `--stdin-file-path=${join(dashboardDir, dashboardFile)}`],
    { cwd: root, input: JSON.stringify(operatorDashboard()), encoding: 'utf8' },
  );
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, dashboardFile), formatted.endsWith('\n') ? formatted : `${formatted}\n`);
}

if (import.meta.main) generateDashboard(join(root, dashboardDir));
