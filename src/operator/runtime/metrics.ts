// The operator's Prometheus series (prom-client), in one registry per process so tests can build their own.
// Names: realmforge_reconcile_*, realmforge_workqueue_depth, realmforge_resources, realmforge_resource_not_ready,
// realmforge_leader, realmforge_kube_requests_total and the Keycloak admin API series of the rate limiter; with
// `process`, also prom-client's default process series (process_resident_memory_bytes, nodejs_heap_*,
// nodejs_eventloop_lag_*).
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/** The name of every operator series: the one place they are spelled (the dashboard and its tests read them). */
export const metricNames = {
  reconcileTotal: 'realmforge_reconcile_total',
  reconcileErrors: 'realmforge_reconcile_errors_total',
  reconcileDuration: 'realmforge_reconcile_duration_seconds',
  queueDepth: 'realmforge_workqueue_depth',
  resourcesByPhase: 'realmforge_resources',
  resourceNotReady: 'realmforge_resource_not_ready',
  leader: 'realmforge_leader',
  kubeRequests: 'realmforge_kube_requests_total',
  keycloakRequests: 'realmforge_keycloak_api_requests_total',
  keycloakRequestsByPath: 'realmforge_keycloak_api_path_requests_total',
  keycloakTokens: 'realmforge_keycloak_api_token_requests_total',
  rateLimitWait: 'realmforge_keycloak_api_rate_limit_wait_seconds',
  rateLimitQueued: 'realmforge_keycloak_api_rate_limit_queued',
} as const;

/** Every series the operator exports. */
export type OperatorMetrics = ReturnType<typeof createMetrics>;

/** A fresh registry with every series registered. */
export function createMetrics(options: { process?: boolean } = {}) {
  const registry = new Registry();
  const registers = [registry];
  if (options.process) collectDefaultMetrics({ register: registry });
  return {
    registry,
    reconcileTotal: new Counter({
      name: metricNames.reconcileTotal,
      help: 'Reconciles by kind and result (success, error).',
      labelNames: ['kind', 'result'] as const,
      registers,
    }),
    reconcileErrors: new Counter({
      name: metricNames.reconcileErrors,
      help: 'Reconciles that failed and were retried with backoff, by kind.',
      labelNames: ['kind'] as const,
      registers,
    }),
    reconcileDuration: new Histogram({
      name: metricNames.reconcileDuration,
      help: 'Time one reconcile took, by kind.',
      labelNames: ['kind'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    }),
    queueDepth: new Gauge({
      name: metricNames.queueDepth,
      help: 'Keys waiting in the work queue, by kind.',
      labelNames: ['kind'] as const,
      registers,
    }),
    resourcesByPhase: new Gauge({
      name: metricNames.resourcesByPhase,
      help: 'Resources by kind and status phase, as last reconciled.',
      labelNames: ['kind', 'phase'] as const,
      registers,
    }),
    // Bounded: one series per resource that is not Ready (removed when it becomes Ready or is deleted); reason is
    // one of the fixed status reasons of the three kinds.
    resourceNotReady: new Gauge({
      name: metricNames.resourceNotReady,
      help: '1 for each resource whose last reconcile left it not Ready, by kind, namespace, name, phase and reason.',
      labelNames: ['kind', 'namespace', 'name', 'phase', 'reason'] as const,
      registers,
    }),
    leader: new Gauge({
      name: metricNames.leader,
      help: '1 while this replica holds the leader lease (or runs without leader election), else 0.',
      registers,
    }),
    kubeRequests: new Counter({
      name: metricNames.kubeRequests,
      help: 'Requests to the Kubernetes API server by verb (get, list, apply, delete, event).',
      labelNames: ['verb'] as const,
      registers,
    }),
    keycloakRequests: new Counter({
      name: metricNames.keycloakRequests,
      help: 'Keycloak admin API requests by namespace, method and HTTP status.',
      labelNames: ['namespace', 'method', 'status'] as const,
      registers,
    }),
    keycloakRequestsByPath: new Counter({
      name: metricNames.keycloakRequestsByPath,
      help: 'Keycloak admin API requests by the kind of resource whose reconcile made them (none: outside one), method and path template (/admin/realms/{realm}/clients/{id}).',
      labelNames: ['kind', 'method', 'path'] as const,
      registers,
    }),
    keycloakTokens: new Counter({
      name: metricNames.keycloakTokens,
      help: 'Admin token requests (password grant) by namespace; also counted as POSTs in the requests total.',
      labelNames: ['namespace'] as const,
      registers,
    }),
    rateLimitWait: new Histogram({
      name: metricNames.rateLimitWait,
      help: 'Time a Keycloak admin call waited for a rate-limit slot, by scope (namespace, global).',
      labelNames: ['scope'] as const,
      buckets: [0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    }),
    rateLimitQueued: new Gauge({
      name: metricNames.rateLimitQueued,
      help: 'Keycloak admin calls waiting for a rate-limit slot, by scope.',
      labelNames: ['scope'] as const,
      registers,
    }),
  };
}
