// promtool unit tests of the chart's alerts (rendered with fixtures/fast-alerts.values.yaml): the recorded steady
// state fires nothing, and each alert fires on the series of its symptom with the labels that locate it.
const job = 'realmforge-operator';
const instance = 'operator:8081';
const runbook = 'https://github.com/realmforge/realmforge/blob/main/docs/operator.md';

type Series = { series: string; values: string };
export type Recorded = { interval: string; steps: number; series: Series[] };

/**
 * The scrapes of fixtures/operator-metrics.txt (each after a `# scrape N at +MS ms` line) as promtool input series,
 * one value per scrape, with the job and instance labels Prometheus adds to a target's series.
 */
export function recordedSeries(text: string): Recorded {
  const scrapes = text.split(/^# scrape \d+ at \+\d+ ms\n/m).slice(1);
  const offsets = [...text.matchAll(/^# scrape \d+ at \+(\d+) ms$/gm)].map((m) => Number(m[1]));
  const step = Math.round((offsets.at(-1)! - offsets[0]!) / (offsets.length - 1) / 1000);
  const values = new Map<string, string[]>();
  scrapes.forEach((scrape, i) => {
    for (const line of scrape.split('\n')) {
      if (!line || line.startsWith('#')) continue;
      const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!m) throw new Error(`fixtures/operator-metrics.txt: not a sample line: ${line}`);
      const labels = [`job="${job}"`, `instance="${instance}"`, ...(m[2] ? [m[2]] : [])].join(',');
      const key = `${m[1]}{${labels}}`;
      if (!values.has(key)) values.set(key, Array(scrapes.length).fill('_'));
      values.get(key)![i] = m[3]!;
    }
  });
  return {
    interval: `${step}s`,
    steps: scrapes.length,
    series: [...values].map(([series, v]) => ({ series, values: v.join(' ') })),
  };
}

const alerts = [
  'RealmforgeNoLeader',
  'RealmforgeReconcileErrors',
  'RealmforgeResourceNotReady',
  'RealmforgeKeycloakUnavailable',
  'RealmforgeRateLimitWaits',
  'RealmforgeWorkQueueNotDraining',
  'RealmforgeMemoryNearLimit',
];

const at = (labels: string) => `{job="${job}",instance="${instance}"${labels ? `,${labels}` : ''}}`;
const fires = (
  alertname: string,
  input: Series[],
  labels: Record<string, string>,
  annotations: Record<string, string>,
) => ({
  name: `${alertname} fires on its symptom`,
  interval: '15s',
  input_series: input,
  alert_rule_test: [
    {
      eval_time: '3m',
      alertname,
      exp_alerts: [
        {
          exp_labels: labels,
          exp_annotations: { ...annotations, runbook_url: `${runbook}#${alertname.toLowerCase()}` },
        },
      ],
    },
  ],
});

/** The steady-state test and one firing test per alert. */
export function alertCases(steady: Recorded): unknown[] {
  const seconds = Number.parseInt(steady.interval, 10);
  const times = [Math.floor(steady.steps / 2), steady.steps - 1].map((i) => `${i * seconds}s`);
  const quiet = {
    name: 'the recorded steady state fires nothing',
    interval: steady.interval,
    input_series: steady.series,
    alert_rule_test: times.flatMap((eval_time) =>
      alerts.map((alertname) => ({ eval_time, alertname, exp_alerts: [] })),
    ),
  };
  const bucket = (le: string, values: string) => ({
    series: `realmforge_keycloak_api_rate_limit_wait_seconds_bucket${at(`scope="namespace",le="${le}"`)}`,
    values,
  });
  return [
    quiet,
    fires(
      'RealmforgeNoLeader',
      [{ series: `realmforge_leader${at('')}`, values: '0x20' }],
      { severity: 'critical', job },
      {
        summary: 'No Realmforge operator replica holds the leader lease.',
        description: `No replica of ${job} in namespace  has been the leader for a while, so no IdentityServer, IdentityRealm or IdentityClient is reconciled.`,
      },
    ),
    fires(
      'RealmforgeReconcileErrors',
      [{ series: `realmforge_reconcile_errors_total${at('kind="IdentityRealm"')}`, values: '0+5x20' }],
      { severity: 'warning', job, kind: 'IdentityRealm' },
      {
        summary: 'Realmforge reconciles of IdentityRealm keep failing.',
        description: `20 IdentityRealm reconciles failed in the last 1m (operator ${job} in namespace ); they are retried with backoff.`,
      },
    ),
    fires(
      'RealmforgeResourceNotReady',
      [
        {
          series: `realmforge_resource_not_ready${at('kind="IdentityRealm",namespace="team",name="shop",phase="Pending",reason="NamespaceNotAuthorized"')}`,
          values: '1x20',
        },
      ],
      {
        severity: 'warning',
        kind: 'IdentityRealm',
        namespace: 'team',
        name: 'shop',
        phase: 'Pending',
        reason: 'NamespaceNotAuthorized',
      },
      {
        summary: 'IdentityRealm team/shop is not Ready (NamespaceNotAuthorized).',
        description:
          'IdentityRealm team/shop has been Pending with reason NamespaceNotAuthorized for more than 20s: its status.message says why and what to do.',
      },
    ),
    fires(
      'RealmforgeKeycloakUnavailable',
      [
        {
          series: `realmforge_keycloak_api_requests_total${at('namespace="team",method="GET",status="200"')}`,
          values: '100x20',
        },
        {
          series: `realmforge_keycloak_api_requests_total${at('namespace="team",method="GET",status="error"')}`,
          values: '0+2x20',
        },
      ],
      { severity: 'critical', namespace: 'team' },
      {
        summary: 'Keycloak admin calls for namespace team fail.',
        description:
          '100% of the Keycloak admin API calls made for resources in namespace team failed in the last 1m (refused, timed out, 5xx or 429): Keycloak is unreachable or failing.',
      },
    ),
    fires(
      'RealmforgeRateLimitWaits',
      [bucket('1', '0+1x20'), bucket('5', '0+1x20'), bucket('10', '0+20x20'), bucket('+Inf', '0+20x20')],
      { severity: 'warning', job, scope: 'namespace' },
      {
        summary: 'Keycloak admin calls wait for the namespace rate limit.',
        description: `One Keycloak admin call in ten waited more than 9.474s for a slot of the namespace rate limit (operator ${job} in namespace ): reconciles are slowed down.`,
      },
    ),
    fires(
      'RealmforgeWorkQueueNotDraining',
      [{ series: `realmforge_workqueue_depth${at('kind="IdentityClient"')}`, values: '120x20' }],
      { severity: 'warning', job, kind: 'IdentityClient' },
      {
        summary: 'The IdentityClient work queue does not drain.',
        description: `At least 120 IdentityClient resources have waited to be reconciled at every moment of the last 1m (operator ${job} in namespace ): more work arrives than the operator reconciles.`,
      },
    ),
    fires(
      'RealmforgeMemoryNearLimit',
      [
        { series: `process_resident_memory_bytes${at('')}`, values: '250000000x20' },
        { series: `realmforge_leader${at('')}`, values: '1x20' },
      ],
      { severity: 'warning', job, instance },
      {
        summary: 'A Realmforge operator process is near its memory limit.',
        description: `${instance} uses 238.4MiB of memory, more than 90% of its 256Mi limit: it will be OOMKilled if it grows.`,
      },
    ),
  ];
}
