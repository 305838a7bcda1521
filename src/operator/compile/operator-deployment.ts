import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';

/** The settings an operator installation is made from; the Helm chart's values mirror them. */
export type OperatorSettings = {
  readonly namespace: string;
  readonly image: string;
  readonly replicas: number;
  readonly globalRateLimitTps: number;
  readonly globalRateLimitBurst: number;
  readonly namespaceRateLimitTps: number;
  readonly namespaceRateLimitBurst: number;
  readonly driftIntervalSeconds: number;
  readonly readyGraceSeconds: number;
  readonly metricsPort: number;
  readonly logLevel: 'debug' | 'info' | 'warn' | 'error';
  readonly resources: { requests: { cpu: string; memory: string }; limits: { memory: string } };
};

/**
 * V8 flags of the operator container. V8 sizes its heap from the node's memory, not the pod's limit, so a burst of
 * reconciles lets garbage pile up far beyond the live heap. A fixed small semi-space and an old-generation limit of
 * 3/4 of the default 256Mi memory limit keep the peak near the live heap (raise the old-space limit with the memory
 * limit). One V8 worker thread: the operator waits on I/O and gets a fraction of a core. What each setting saves:
 * docs/benchmarks.md (Operator memory).
 */
export const operatorNodeOptions = '--max-semi-space-size=2 --max-old-space-size=192 --v8-pool-size=1';

/**
 * The operator container's process environment besides its settings: the V8 flags, and at most two glibc malloc
 * arenas (glibc gives each thread that allocates an arena of its own, up to 8 per core, and memory freed in one
 * is not returned to the others: the V8 and libuv threads held megabytes each).
 */
export const operatorProcessEnv: Readonly<Record<string, string>> = {
  NODE_OPTIONS: operatorNodeOptions,
  MALLOC_ARENA_MAX: '2',
};

/** The names docs/decisions.md fixes for the operator. */
export const operatorName = 'realmforge-operator';

/** The operator's Namespace, ServiceAccount and Deployment (rate limits as env, metrics and probes on one port). */
export class OperatorDeployment extends Construct {
  constructor(scope: Construct, id: string, s: OperatorSettings) {
    super(scope, id);
    const labels = { 'app.kubernetes.io/name': operatorName, 'app.kubernetes.io/part-of': 'realmforge' };
    new ApiObject(this, 'namespace', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: s.namespace, labels },
    });
    new ApiObject(this, 'service-account', {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: operatorName, namespace: s.namespace, labels },
    });
    const probe = (path: string) => ({
      httpGet: { path, port: 'metrics' },
      periodSeconds: 10,
      timeoutSeconds: 5,
    });
    new ApiObject(this, 'deployment', {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: operatorName, namespace: s.namespace, labels },
      spec: {
        replicas: s.replicas,
        selector: { matchLabels: { 'app.kubernetes.io/name': operatorName } },
        template: {
          metadata: { labels },
          spec: {
            serviceAccountName: operatorName,
            securityContext: {
              runAsNonRoot: true,
              runAsUser: 65532,
              seccompProfile: { type: 'RuntimeDefault' },
            },
            containers: [
              {
                name: 'operator',
                image: s.image,
                args: [
                  'run',
                  `--metrics-port=${s.metricsPort}`,
                  `--drift-interval=${s.driftIntervalSeconds}s`,
                  `--ready-grace=${s.readyGraceSeconds}s`,
                  `--leader-elect=${s.replicas > 1}`,
                  `--log-level=${s.logLevel}`,
                ],
                env: [
                  { name: 'KEYCLOAK_API_GLOBAL_RATE_LIMIT_TPS', value: String(s.globalRateLimitTps) },
                  { name: 'KEYCLOAK_API_GLOBAL_RATE_LIMIT_BURST', value: String(s.globalRateLimitBurst) },
                  { name: 'KEYCLOAK_API_NAMESPACE_RATE_LIMIT_TPS', value: String(s.namespaceRateLimitTps) },
                  {
                    name: 'KEYCLOAK_API_NAMESPACE_RATE_LIMIT_BURST',
                    value: String(s.namespaceRateLimitBurst),
                  },
                  ...Object.entries(operatorProcessEnv).map(([name, value]) => ({ name, value })),
                  { name: 'POD_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
                  { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
                ],
                ports: [{ name: 'metrics', containerPort: s.metricsPort, protocol: 'TCP' }],
                livenessProbe: probe('/healthz'),
                readinessProbe: probe('/readyz'),
                resources: s.resources,
                securityContext: {
                  allowPrivilegeEscalation: false,
                  capabilities: { drop: ['ALL'] },
                  readOnlyRootFilesystem: true,
                },
              },
            ],
          },
        },
      },
    });
  }
}
