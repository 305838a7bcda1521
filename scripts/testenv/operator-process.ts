// Runs the real operator (bin/realmforge.js run) against the test environment the way a cluster would: as the
// ServiceAccount realmforge-system/realmforge-operator with exactly the RBAC from dist-manifests/ (a token minted
// for it, not the harness's admin certificate), reaching Keycloak through the environment's endpoint map.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { eventually, type TestEnv } from './harness.ts';

const root = join(import.meta.dirname, '..', '..');
export const operatorNamespace = 'realmforge-system';
export const operatorAccount = 'realmforge-operator';

/** A running operator process and what it printed. */
export type OperatorProcess = {
  proc: ChildProcess;
  logs: () => Record<string, any>[];
  metricsUrl: string;
  metrics(): Promise<string>;
  /** Sum of a counter over the series whose labels match `labels`. */
  counter(name: string, labels?: Record<string, string>): Promise<number>;
  /** Keycloak writes sent so far: POST, PUT and DELETE less token requests (POSTs that write nothing), from one
   * scrape, so a token renewed between two reads is not counted as a write. */
  writes(): Promise<number>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
};

/** Applies the install manifests' RBAC, Namespace and ServiceAccount (not the Deployment: the test runs the process). */
export async function installOperatorRbac(env: TestEnv): Promise<void> {
  const docs = parseAllDocuments(readFileSync(join(root, 'dist-manifests', 'operator.yaml'), 'utf8'));
  for (const doc of docs) {
    const object = doc.toJS();
    if (!object || object.kind === 'Deployment') continue;
    await env.apply(object);
  }
}

/** Lets the operator use Secrets in `namespace`, as the client chart's RoleBinding does. */
export async function grantSecretAccess(env: TestEnv, namespace: string): Promise<void> {
  await env.apply({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: { name: 'realmforge-operator-access', namespace },
    roleRef: {
      apiGroup: 'rbac.authorization.k8s.io',
      kind: 'ClusterRole',
      name: 'keycloak-operator-namespace-access',
    },
    subjects: [{ kind: 'ServiceAccount', name: operatorAccount, namespace: operatorNamespace }],
  } as never);
}

/** A kubeconfig that authenticates with a fresh token of the operator's ServiceAccount, valid `seconds`. */
export async function operatorKubeconfig(env: TestEnv, seconds = 7200): Promise<string> {
  const res = await env.request(
    'POST',
    `/api/v1/namespaces/${operatorNamespace}/serviceaccounts/${operatorAccount}/token`,
    { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: seconds } },
  );
  if (res.status !== 201) throw new Error(`minting a token: ${res.status} ${JSON.stringify(res.body)}`);
  const cluster = env.kubeconfig.getCurrentCluster();
  if (!cluster) throw new Error('the harness kubeconfig has no cluster');
  // Written by hand: client-node's exportConfig() adds fields (a context's own name, preferences) that
  // `realmforge run` refuses, as it refuses every kubeconfig field it does not honour.
  const clusterEntry: Record<string, unknown> = { server: cluster.server };
  if (cluster.caFile) clusterEntry['certificate-authority'] = cluster.caFile;
  if (cluster.caData) clusterEntry['certificate-authority-data'] = cluster.caData;
  const config = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: cluster.name, cluster: clusterEntry }],
    users: [{ name: operatorAccount, user: { token: res.body.status.token } }],
    contexts: [{ name: 'operator', context: { cluster: cluster.name, user: operatorAccount } }],
    'current-context': 'operator',
  };
  const file = join(mkdtempSync(join(tmpdir(), 'realmforge-operator-')), 'kubeconfig');
  writeFileSync(file, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  return file;
}

function sumSeries(text: string, name: string, labels: Record<string, string>): number {
  let total = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const matches = Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`));
    if (matches) total += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return total;
}

/** The drift interval the e2e operator runs with unless a suite passes its own --drift-interval. */
export const e2eDriftMs = 5_000;

/**
 * Starts `realmforge run` (bin/realmforge.js, or the script `entry`) with `args` and extra `env`, and waits for its
 * metrics endpoint. `containerArgs` replaces the whole command line (a Deployment's container args, run as given,
 * without the test defaults).
 */
export async function startOperator(
  env: TestEnv,
  options: {
    args?: string[];
    containerArgs?: string[];
    env?: Record<string, string>;
    kubeconfig?: string;
    entry?: string;
  } = {},
): Promise<OperatorProcess> {
  const kubeconfig = options.kubeconfig ?? (await operatorKubeconfig(env));
  const argv = options.containerArgs ?? [
    'run',
    '--metrics-port=0',
    ...(options.args?.some((a) => a.startsWith('--drift-interval'))
      ? []
      : [`--drift-interval=${e2eDriftMs / 1000}s`]),
    ...(options.args ?? []),
  ];
  const proc = spawn(process.execPath, [options.entry ?? join(root, 'bin', 'realmforge.js'), ...argv], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      KUBECONFIG: kubeconfig,
      REALMFORGE_ENDPOINT_MAP: env.state.endpointMapFile,
      REALMFORGE_METRICS_HOST: '127.0.0.1',
      POD_NAMESPACE: operatorNamespace,
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: Record<string, any>[] = [];
  let partial = '';
  proc.stdout?.on('data', (d: Buffer) => {
    const text = partial + d.toString('utf8');
    const parts = text.split('\n');
    partial = parts.pop() ?? '';
    for (const p of parts) {
      try {
        lines.push(JSON.parse(p));
      } catch {
        lines.push({ msg: p });
      }
    }
  });
  let stderr = '';
  proc.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString('utf8');
  });
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  const port = await eventually('the operator to serve its metrics endpoint', 30_000, async () => {
    if (proc.exitCode !== null) throw new Error(`the operator exited ${proc.exitCode}: ${stderr}`);
    return lines.find((l) => l.msg === 'operator started')?.metricsPort as number | undefined;
  });
  const metricsUrl = `http://127.0.0.1:${port}`;
  const metrics = async () => (await fetch(`${metricsUrl}/metrics`)).text();
  return {
    proc,
    logs: () => lines,
    metricsUrl,
    metrics,
    counter: async (name, labels = {}) => sumSeries(await metrics(), name, labels),
    async writes() {
      const text = await metrics();
      const sent = ['POST', 'PUT', 'DELETE'].map((method) =>
        sumSeries(text, 'realmforge_keycloak_api_requests_total', { method }),
      );
      return (
        sent.reduce((a, b) => a + b) - sumSeries(text, 'realmforge_keycloak_api_token_requests_total', {})
      );
    },
    async stop(signal = 'SIGTERM') {
      if (proc.exitCode === null) proc.kill(signal);
      return exited;
    },
  };
}
