// Symptoms "operator not reconciling (rate limiting)" and "too many reconciliation loops": the operator's own
// /metrics: leadership, reconcile errors, work queue depth and Keycloak rate-limit pressure.
import { type DoctorCheck, fail, ok, warn } from './check.ts';
import type { Snapshot } from './snapshot.ts';

type Series = { labels: Record<string, string>; value: number };

/** The samples of metric `name` in Prometheus text format. */
export function samples(text: string, name: string): Series[] {
  const out: Series[] = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const labels: Record<string, string> = {};
    const braces = /^[^{ ]+\{([^}]*)\}/.exec(line)?.[1] ?? '';
    for (const m of braces.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[m[1]] = m[2];
    out.push({ labels, value: Number(line.slice(line.lastIndexOf(' ') + 1)) });
  }
  return out;
}

const sum = (xs: Series[]) => xs.reduce((n, x) => n + x.value, 0);
const subject = 'operator /metrics';
const raise =
  'raise KEYCLOAK_API_GLOBAL_RATE_LIMIT_TPS / KEYCLOAK_API_NAMESPACE_RATE_LIMIT_TPS (chart values rateLimits.*)';

/** Leadership, reconcile errors per kind, work queue depth and rate-limit waits. */
export function checkMetrics(s: Snapshot): DoctorCheck[] {
  const text = s.metrics.text;
  if (text === undefined)
    return [
      warn(
        'metrics',
        subject,
        'could not be read',
        s.metrics.error ?? 'unknown',
        'run doctor with access to pods/proxy in the operator namespace, or pass --operator-url',
      ),
    ];
  const checks: DoctorCheck[] = [];
  const leader = samples(text, 'realmforge_leader');
  if (leader.length && sum(leader) === 0 && !s.deployment)
    checks.push(
      fail(
        'metrics',
        'realmforge_leader',
        'this operator is not the leader',
        'it waits for the Lease, so nothing reconciles through it',
        'stop the other instance holding the Lease, or run without --leader-elect',
      ),
    );
  const errors = samples(text, 'realmforge_reconcile_errors_total').filter((x) => x.value > 0);
  if (errors.length) {
    const byKind = errors.map((x) => `${x.labels.kind} ${x.value}`).join(', ');
    checks.push(
      warn(
        'metrics',
        'realmforge_reconcile_errors_total',
        `reconcile errors since start: ${byKind}`,
        'reconciles failed (Keycloak unreachable, a conflict, a refused write); they are retried',
        'the resources checks below name each resource that is not Ready and why',
      ),
    );
  } else checks.push(ok('metrics', 'realmforge_reconcile_errors_total', 'no reconcile errors since start'));
  const depth = samples(text, 'realmforge_workqueue_depth').filter((x) => x.value >= 100);
  for (const d of depth)
    checks.push(
      warn(
        'metrics',
        `realmforge_workqueue_depth{kind="${d.labels.kind}"}`,
        `${d.value} ${d.labels.kind} resources waiting`,
        'more work arrives than the operator reconciles',
        'raise --concurrency, or look for a resource that is re-queued in a loop in the operator log',
      ),
    );
  const queued = samples(text, 'realmforge_keycloak_api_rate_limit_queued').filter((x) => x.value > 0);
  const waitSum = samples(text, 'realmforge_keycloak_api_rate_limit_wait_seconds_sum');
  const waitCount = samples(text, 'realmforge_keycloak_api_rate_limit_wait_seconds_count');
  const meanWait = sum(waitCount) ? sum(waitSum) / sum(waitCount) : 0;
  if (queued.length || meanWait >= 1) {
    const scopes = queued.map((q) => `${q.labels.scope} ${q.value}`).join(', ');
    checks.push(
      warn(
        'metrics',
        'Keycloak rate limits',
        `calls waiting now: ${scopes || 'none'}; mean wait ${meanWait.toFixed(2)} s`,
        'Keycloak admin calls are held back by the rate limits',
        raise,
      ),
    );
  } else checks.push(ok('metrics', 'Keycloak rate limits', 'no call is waiting on a rate limit'));
  return checks;
}
