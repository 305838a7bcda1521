// Reads a cluster into a Snapshot with the operator's own kube client (runtime/): gets and lists, one
// SubjectAccessReview per verb the operator needs (from the same rules the install manifests are compiled from),
// the operator's /metrics (through its pod's proxy, or at --operator-url when it runs outside the cluster) and
// each Keycloak's /health/ready and /metrics (through the endpoint map, in-cluster DNS or the API server's
// service proxy).
import type { IdentityServer } from '../../../generated/types/crds/identityserver.ts';
import type { KubeObject } from '../compile/kube-object.ts';
import { resolveServer, serverEndpoints } from '../compile/resolved-server.ts';
import type { EndpointMap } from '../runtime/endpoint-map.ts';
import type { KubeClient } from '../runtime/kube-client.ts';
import type { KubeTransport } from '../runtime/kube-transport.ts';
import { neededAccess } from './needed-access.ts';
import {
  type AccessAnswer,
  cnpgClusterCrd,
  type MetricsText,
  namespacesNeedingAccess,
  type OperatorTarget,
  operatorCrds,
  type Probe,
  type ServerFacts,
  type Snapshot,
} from './snapshot.ts';

/** What the reader needs: the kube client and transport, plain HTTP for URLs outside the API server. */
export type DoctorDeps = {
  readonly kube: KubeClient;
  readonly transport: KubeTransport;
  readonly fetchText: (url: string, signal?: AbortSignal) => Promise<{ status: number; text: string }>;
  readonly endpoints: EndpointMap;
  readonly inCluster: boolean;
  readonly server: string;
};

/** The pod's port named `metrics` (the chart and the manifests name it), else the operator's default 8081. */
function metricsPortOf(pod: KubeObject): number {
  type Spec = { containers?: { ports?: { name?: string; containerPort: number }[] }[] };
  const ports = ((pod.spec as Spec | undefined)?.containers ?? []).flatMap((c) => c.ports ?? []);
  return ports.find((p) => p.name === 'metrics')?.containerPort ?? 8081;
}
const byName = (a: KubeObject, b: KubeObject) =>
  `${a.metadata.namespace}/${a.metadata.name}`.localeCompare(`${b.metadata.namespace}/${b.metadata.name}`);

type Read = (signal: AbortSignal) => Promise<{ status: number; text: string }>;
const readTimeoutMs = 20_000;

/**
 * One read, given `timeoutMs` on a timer of its own that also aborts it: a Keycloak health read through the API
 * server's service proxy was seen never to settle while holding nothing that kept Node running, so doctor ended
 * silently with exit code 0 before printing its report.
 */
async function timed(read: Read, timeoutMs: number): Promise<{ status: number; text: string }> {
  const abort = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new Error(`no answer within ${timeoutMs / 1000} s`);
      abort.abort(error);
      reject(error);
    }, timeoutMs);
  });
  try {
    return await Promise.race([read(abort.signal), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** One probe: ok when the read answers 200 with a body matching `ready`. */
export async function probe(read: Read, ready: RegExp, timeoutMs = readTimeoutMs): Promise<Probe> {
  try {
    const r = await timed(read, timeoutMs);
    const ok = r.status === 200 && ready.test(r.text);
    return { ok, detail: `HTTP ${r.status}${ok ? '' : `: ${r.text.slice(0, 200).trim()}`}` };
  } catch (error) {
    return { ok: false, detail: (error as Error).message };
  }
}

/** A /metrics read, timed like a probe; `where` names it in the error when the caller's check does not. */
function readMetrics(read: Read, where?: string): Promise<MetricsText> {
  return timed(read, readTimeoutMs).then(
    (r) =>
      r.status === 200 ? { text: r.text } : { error: `HTTP ${r.status}${where ? ` from ${where}` : ''}` },
    (e: Error) => ({ error: `${where ? `${where}: ` : ''}${e.message}` }),
  );
}

/** GET through the API server (a pod's or service's proxy), as text. */
function viaApiServer(deps: DoctorDeps, path: string) {
  return async (signal?: AbortSignal) => {
    const r = await deps.transport.request('GET', path, { signal });
    return { status: r.status, text: r.text ?? '' };
  };
}

async function reviewAccess(
  deps: DoctorDeps,
  op: OperatorTarget,
  namespaces: string[],
): Promise<AccessAnswer[]> {
  const user = `system:serviceaccount:${op.namespace}:${op.serviceAccount}`;
  const groups = ['system:serviceaccounts', `system:serviceaccounts:${op.namespace}`, 'system:authenticated'];
  const wanted = neededAccess(op.namespace, namespaces);
  const answers: AccessAnswer[] = [];
  for (let i = 0; i < wanted.length; i += 16) {
    const batch = wanted.slice(i, i + 16).map(async (w): Promise<AccessAnswer> => {
      const [resource, subresource] = w.resource.split('/');
      const res = await deps.transport.request('POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', {
        body: {
          apiVersion: 'authorization.k8s.io/v1',
          kind: 'SubjectAccessReview',
          spec: { user, groups, resourceAttributes: { ...w, resource, subresource } },
        },
      });
      const status = (res.body as { status?: { allowed?: boolean; reason?: string } } | undefined)?.status;
      if (res.status !== 201 && res.status !== 200) {
        return { ...w, allowed: false, reason: `the SubjectAccessReview was refused (HTTP ${res.status})` };
      }
      return { ...w, allowed: status?.allowed === true, reason: status?.reason };
    });
    answers.push(...(await Promise.all(batch)));
  }
  return answers;
}

async function operatorHealth(deps: DoctorDeps, op: OperatorTarget, pods: KubeObject[]) {
  if (op.url) {
    const base = op.url.replace(/\/$/, '');
    const health = await probe((signal) => deps.fetchText(`${base}/healthz`, signal), /ok/i);
    const metrics = await readMetrics(
      (signal) => deps.fetchText(`${base}/metrics`, signal),
      `${base}/metrics`,
    );
    return { health, metrics };
  }
  const running = pods.find((p) => (p.status as { phase?: string } | undefined)?.phase === 'Running');
  if (!running) return { metrics: { error: 'no operator pod is running' } };
  const path = `/api/v1/namespaces/${op.namespace}/pods/${running.metadata.name}:${metricsPortOf(running)}/proxy/metrics`;
  return { metrics: await readMetrics(viaApiServer(deps, path), path) };
}

/** A GET of Keycloak's management port: through the endpoint map or in-cluster DNS, else the service proxy. */
function keycloakRead(deps: DoctorDeps, server: ServerFacts['resolved'], path: string): Read {
  const url = `${serverEndpoints(server).management}${path}`;
  const local = deps.endpoints.resolve(url);
  if (local !== url || deps.inCluster) return (signal) => deps.fetchText(local, signal);
  return viaApiServer(
    deps,
    `/api/v1/namespaces/${server.namespace}/services/http:${server.serviceName}:9000/proxy${path}`,
  );
}

/** Keycloak's /health/ready and, once it answers UP, its /metrics (the realms cache's series). */
async function keycloakFacts(deps: DoctorDeps, server: ServerFacts['resolved']) {
  const keycloak = await probe(keycloakRead(deps, server, '/health/ready'), /UP/);
  if (!keycloak.ok) return { keycloak };
  return { keycloak, keycloakMetrics: await readMetrics(keycloakRead(deps, server, '/metrics')) };
}

async function serverFacts(deps: DoctorDeps, server: KubeObject): Promise<ServerFacts> {
  const resolved = resolveServer(server as unknown as IdentityServer);
  const db = resolved.database;
  const [cluster, secret, ingress] = await Promise.all([
    deps.kube.get({
      apiVersion: 'postgresql.cnpg.io/v1',
      kind: 'Cluster',
      namespace: db.namespace,
      name: db.cluster,
    }),
    deps.kube.get({ apiVersion: 'v1', kind: 'Secret', namespace: db.namespace, name: db.credentialsSecret }),
    resolved.ingress
      ? deps.kube.get({
          apiVersion: 'networking.k8s.io/v1',
          kind: 'Ingress',
          namespace: resolved.namespace,
          name: resolved.serviceName,
        })
      : undefined,
  ]);
  const kc = (server.status as { phase?: string } | undefined)?.phase
    ? await keycloakFacts(deps, resolved)
    : {};
  // Only the Secret's existence is kept: its values never leave this function.
  return { server, resolved, cluster, credentialsSecretExists: secret !== undefined, ...kc, ingress };
}

/** Reads everything the checks need; `namespace` narrows the custom resources (and what follows from them). */
export async function readSnapshot(
  deps: DoctorDeps,
  op: OperatorTarget,
  namespace?: string,
): Promise<Snapshot> {
  const { kube } = deps;
  const crdType = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition' };
  const crds: Record<string, KubeObject | undefined> = {};
  for (const name of [...operatorCrds, cnpgClusterCrd]) crds[name] = await kube.get({ ...crdType, name });
  const at = { namespace: op.namespace };
  const [deployment, pods, lease] = await Promise.all([
    kube.get({ apiVersion: 'apps/v1', kind: 'Deployment', ...at, name: op.deployment }),
    kube.list({ apiVersion: 'v1', kind: 'Pod' }, op.namespace, `app.kubernetes.io/name=${op.deployment}`),
    kube.get({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', ...at, name: op.deployment }),
  ]);
  const list = (kind: string) => kube.list({ apiVersion: 'realmforge.dev/v1', kind }, namespace ?? '');
  const [serverObjects, realms, clients] = await Promise.all(
    ['IdentityServer', 'IdentityRealm', 'IdentityClient'].map(list),
  );
  const namespaces = namespacesNeedingAccess(serverObjects, clients);
  const bindings: Record<string, KubeObject[]> = {};
  for (const ns of namespaces) {
    bindings[ns] = await kube.list({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding' }, ns);
  }
  const { health, metrics } = await operatorHealth(deps, op, pods);
  return {
    cluster: deps.server,
    namespace,
    operator: op,
    crds,
    deployment,
    pods: pods.sort(byName),
    lease,
    health,
    metrics,
    access: await reviewAccess(deps, op, namespaces),
    bindings,
    // An existing Keycloak (spec.external) has no Deployment, database or Ingress to check.
    servers: await Promise.all(
      serverObjects
        .filter((s) => !(s.spec as { external?: unknown } | undefined)?.external)
        .sort(byName)
        .map((s) => serverFacts(deps, s)),
    ),
    realms: realms.sort(byName),
    clients: clients.sort(byName),
    ingressClasses: await kube.list({ apiVersion: 'networking.k8s.io/v1', kind: 'IngressClass' }, ''),
  };
}
