// The operator's HTTP endpoint on the metrics port: /metrics (Prometheus text), /healthz (the process serves) and
// /readyz (the watches have listed once, so a reconcile sees the cluster). It binds all interfaces by default
// because the kubelet probes the pod IP; tests bind 127.0.0.1.
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';

// Required, not imported: an ES import of node:http builds a namespace of all its exports, and reading them loads
// Node's own copy of undici, which the operator never uses (it talks HTTP through the undici package).
const { createServer } = createRequire(import.meta.url)('node:http') as typeof import('node:http');

/** A started endpoint; `port` is the bound one (useful with port 0). */
export type HealthServer = { port: number; close(): Promise<void> };

/** Serves /metrics, /healthz and /readyz until closed. */
export async function startHealthServer(options: {
  port: number;
  host?: string;
  registry: Registry;
  ready: () => boolean;
}): Promise<HealthServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    if (path === '/metrics') {
      options.registry.metrics().then(
        (text) => res.writeHead(200, { 'content-type': options.registry.contentType }).end(text),
        (error: Error) => res.writeHead(500).end(error.message),
      );
      return;
    }
    if (path === '/healthz') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok\n');
      return;
    }
    if (path === '/readyz') {
      const ready = options.ready();
      res.writeHead(ready ? 200 : 503, { 'content-type': 'text/plain' }).end(ready ? 'ok\n' : 'not ready\n');
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, resolve);
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
