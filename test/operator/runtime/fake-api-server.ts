// An API server on 127.0.0.1 for the REST client, watch and lease tests: it answers discovery from a small table,
// logs every request, and hands the rest to the test's route function (which may stream a watch by hand).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { manualClock } from '../../../src/core/clock.ts';
import type { KubeAccess } from '../../../src/operator/runtime/kube-config.ts';
import { kubeResources } from '../../../src/operator/runtime/kube-resources.ts';
import { type KubeTransport, kubeTransport } from '../../../src/operator/runtime/kube-transport.ts';

/** One request as the server saw it. */
export type SeenRequest = {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: any;
};

/** The route function: answer `req` on `res`, or return false for a 404. */
export type Route = (
  req: SeenRequest,
  res: ServerResponse,
) => boolean | undefined | Promise<boolean | undefined>;

/** The discovery table: group-version -> kind -> [plural, namespaced]. */
export const discovery: Record<string, Record<string, [string, boolean]>> = {
  v1: { Event: ['events', true], Secret: ['secrets', true], Namespace: ['namespaces', false] },
  'apps/v1': { Deployment: ['deployments', true] },
  'coordination.k8s.io/v1': { Lease: ['leases', true] },
  'postgresql.cnpg.io/v1': { Database: ['databases', true], Cluster: ['clusters', true] },
  'realmforge.dev/v1': {
    IdentityServer: ['identityservers', true],
    IdentityRealm: ['identityrealms', true],
    IdentityClient: ['identityclients', true],
  },
};

/** Sends `body` as JSON with `status`. */
export function json(res: ServerResponse, status: number, body: unknown): true {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
  return true;
}

/** A Kubernetes Status body. */
export const status = (code: number, message: string) => ({
  kind: 'Status',
  status: 'Failure',
  code,
  message,
});

function discover(path: string): unknown {
  const gv = path.startsWith('/api/') ? path.slice('/api/'.length) : path.slice('/apis/'.length);
  const kinds = discovery[gv];
  if (!kinds) return undefined;
  const resources = Object.entries(kinds).flatMap(([kind, [name, namespaced]]) => [
    { name, kind, namespaced },
    { name: `${name}/status`, kind, namespaced },
  ]);
  return { kind: 'APIResourceList', groupVersion: gv, resources };
}

/** A running fake: its URL, what it saw, a transport and resources bound to it, and close(). */
export async function fakeApiServer(route: Route, overrides: Partial<KubeAccess> = {}) {
  const requests: SeenRequest[] = [];
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    let text = '';
    for await (const chunk of req) text += chunk;
    const seen: SeenRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      body: text ? JSON.parse(text) : undefined,
    };
    requests.push(seen);
    const discovered = /^\/apis?\/[^/]+(\/v[^/]+)?$/.test(url.pathname) ? discover(url.pathname) : undefined;
    if (discovered) return json(res, 200, discovered);
    if (!(await route(seen, res))) json(res, 404, status(404, `${url.pathname} not found`));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clock = manualClock();
  const access: KubeAccess = {
    server: url,
    insecureSkipTlsVerify: false,
    impersonation: {},
    authorization: async () => 'Bearer test-token',
    refresh: () => {},
    source: 'test',
    ...overrides,
  };
  const transport: KubeTransport = kubeTransport(access, { timeoutMs: 5000, clock });
  return {
    url,
    requests,
    clock,
    transport,
    resources: kubeResources(transport, clock),
    /** Requests other than discovery. */
    calls: () => requests.filter((r) => !/^\/apis?\/[^/]+(\/v[^/]+)?$/.test(r.path)),
    async close() {
      await transport.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
