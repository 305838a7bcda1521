// The IdentityServer controller's unit-test fixtures: a Keycloak stand-in on 127.0.0.1, the server, its database,
// the controller's Deps with the real admin client, and the pods and Deployment status the kubelet would report.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { IdentityServer } from '../../../../generated/types/crds/identityserver.ts';
import { manualClock } from '../../../../src/core/clock.ts';
import type { KubeObject } from '../../../../src/operator/compile/kube-object.ts';
import type { ServerDeps } from '../../../../src/operator/controllers/identity-server/identity-server.ts';
import { createAdminClient } from '../../../../src/operator/keycloak/admin-client.ts';
import { keycloakAdmins } from '../../../../src/operator/keycloak/admins.ts';
import type { HttpClient } from '../../../../src/operator/runtime/deps.ts';
import { loadEndpointMap } from '../../../../src/operator/runtime/endpoint-map.ts';
import type { Logger } from '../../../../src/operator/runtime/logger.ts';
import { handleMaster, masterState } from '../../keycloak/fake-master.ts';
import type { FakeKube } from '../fake-kube.ts';

export const b64 = (s: string) => Buffer.from(s).toString('base64');
export const quiet: Logger = { info() {}, warn() {}, error() {} };

/** A Keycloak stand-in on 127.0.0.1: /health/ready and the master token endpoint, accepting one password. */
export async function fakeKeycloak(state: { health: string; password?: string; adminDelayMs?: number }) {
  const master = masterState(state.password);
  Object.defineProperty(master, 'password', { get: () => state.password });
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => {
      body += d;
    });
    req.on('end', () => {
      if (req.url === '/health/ready') {
        res.writeHead(state.health === 'UP' ? 200 : 503).end(JSON.stringify({ status: state.health }));
      } else if (req.url === '/admin/serverinfo' && req.headers.authorization?.startsWith('Bearer ')) {
        setTimeout(() => handleMaster(master, req, res, body), state.adminDelayMs ?? 0);
      } else if (handleMaster(master, req, res, body)) {
        // the token endpoint and the calls that create the operator's client
      } else res.writeHead(404).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, master, close: () => new Promise<void>((r) => server.close(() => r())) };
}

export const idServer = (
  spec: Partial<IdentityServer['spec']> = {},
  annotations?: Record<string, string>,
): KubeObject =>
  ({
    apiVersion: 'realmforge.dev/v1',
    kind: 'IdentityServer',
    metadata: { name: 'kc', namespace: 'identity', uid: 'srv-uid', generation: 1, annotations },
    spec: { image: { tag: '26.0.7' }, database: { cluster: 'pg', namespace: 'db' }, ...spec },
  }) as KubeObject;
export const dbSecret: KubeObject = {
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name: 'pg-app', namespace: 'db' },
  data: { username: b64('app'), password: b64('db-pass') },
};
export const cluster: KubeObject = {
  apiVersion: 'postgresql.cnpg.io/v1',
  kind: 'Cluster',
  metadata: { name: 'pg', namespace: 'db' },
  status: { phase: 'Cluster in healthy state' },
};

export function deps(
  kube: FakeKube,
  keycloakUrl: string,
  http: HttpClient = (url, init) => fetch(url, init),
): ServerDeps {
  const endpoints = loadEndpointMap(
    JSON.stringify({
      endpoints: { 'kc.identity.svc:8080': keycloakUrl, 'kc.identity.svc:9000': keycloakUrl },
    }),
  );
  const clock = manualClock();
  const base = {
    kube,
    http,
    endpoints,
    clock,
    random: () => 0.5,
    newPassword: () => 'generated-pw',
    logger: quiet,
  };
  // The real admin client: the readiness check goes through its token cache and circuit breaker.
  const admins = keycloakAdmins(base, (url, admin) =>
    createAdminClient(url, admin, {
      http,
      limiter: { acquire: async () => {}, stop: async () => {} },
      clock,
      random: () => 0.5,
      count: () => {},
      canWrite: () => true,
      sleep: async () => {},
    }),
  );
  return { ...base, admins };
}

/** Marks the Deployment available, as the kubelet and controller-manager would. */
export function makeAvailable(kube: FakeKube) {
  const d = kube.find('Deployment', 'identity', 'kc') as KubeObject;
  const replicas = (d.spec as { replicas: number }).replicas;
  d.status = {
    observedGeneration: d.metadata.generation,
    replicas,
    updatedReplicas: replicas,
    availableReplicas: replicas,
    readyReplicas: replicas,
    conditions: [{ type: 'Available', status: 'True' }],
  };
}

/** A running Keycloak pod of the server, with `tag`. */
export const keycloakPod = (name: string, tag: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name,
    namespace: 'identity',
    labels: { 'app.kubernetes.io/instance': 'kc', 'app.kubernetes.io/name': 'keycloak' },
  },
  spec: { containers: [{ name: 'keycloak', image: `quay.io/keycloak/keycloak:${tag}` }] },
});
export const deployment = (kube: FakeKube) =>
  kube.find('Deployment', 'identity', 'kc') as KubeObject & {
    spec: { replicas: number; template: { spec: { containers: { image: string }[] } } };
  };
