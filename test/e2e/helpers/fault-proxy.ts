// A fault-injecting HTTP proxy between the operator and one Keycloak, placed through the endpoint map: the
// operator's map sends `<svc>.<ns>.svc:8080` here, and the proxy forwards to wherever the environment's map says
// that Keycloak is. A test switches its mode: pass through, answer slowly, answer a status (every call, or those
// of one method and path; with a Retry-After and a body of its choice), or forward the next
// matching request and then drop the connection without an answer (a lost response), forward the next matching
// request and hold its answer back (the caller dies waiting), or drop every connection at once (Keycloak down).
// Every request is counted. An existing Keycloak (spec.external) is pointed at the proxy's url directly.
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadEndpointMap } from '../../../src/operator/runtime/endpoint-map.ts';

export type FaultMode =
  | { kind: 'pass' }
  | { kind: 'slow'; ms: number }
  | { kind: 'status'; status: number; path?: RegExp; method?: string; retryAfter?: string; body?: string }
  | { kind: 'lose'; method: string; path: RegExp }
  | { kind: 'hold'; method: string; path: RegExp }
  | { kind: 'refuse' };

export type SeenCall = {
  at: number;
  method: string;
  path: string;
  answered: number | 'lost' | 'held' | 'refused';
};

/** Starts the proxy for the in-cluster address `service` (host:port) and writes an endpoint map that uses it. */
export async function faultProxy(envMapFile: string, service: string, mapFile: string) {
  const envMap = loadEndpointMap(envMapFile);
  const target = () => envMap.resolve(`http://${service}`).replace(/\/$/, '');
  let mode: FaultMode = { kind: 'pass' };
  const calls: SeenCall[] = [];
  const server = createServer((req, res) => {
    const seen: SeenCall = { at: Date.now(), method: req.method ?? '', path: req.url ?? '', answered: 0 };
    calls.push(seen);
    const current = mode;
    if (current.kind === 'refuse') {
      seen.answered = 'refused';
      req.socket.destroy();
      return;
    }
    const chosen =
      current.kind === 'status' &&
      (!current.path || current.path.test(req.url ?? '')) &&
      (!current.method || current.method === req.method);
    if (current.kind === 'status' && chosen) {
      seen.answered = current.status;
      const headers = {
        'content-type': 'application/json',
        ...(current.retryAfter ? { 'retry-after': current.retryAfter } : {}),
      };
      // As Keycloak (Vert.x) refuses headers over its limit: 431 with an empty body.
      if (current.status === 431) res.writeHead(431).end();
      else res.writeHead(current.status, headers).end(current.body ?? '{"error":"injected"}');
      req.resume();
      return;
    }
    const matches =
      (current.kind === 'lose' || current.kind === 'hold') &&
      current.method === req.method &&
      current.path.test(req.url ?? '');
    const lose = matches && current.kind === 'lose';
    const hold = matches && current.kind === 'hold';
    if (matches) mode = { kind: 'pass' }; // only the next matching request
    const upstream = request(`${target()}${req.url}`, { method: req.method, headers: req.headers }, (up) => {
      const answer = () => {
        if (hold) {
          // The request reached Keycloak and was applied; its answer is kept until the connection closes.
          seen.answered = 'held';
          up.resume();
          return;
        }
        if (lose) {
          // The request reached Keycloak and was applied; its answer never arrives.
          seen.answered = 'lost';
          up.resume();
          req.socket.destroy();
          return;
        }
        seen.answered = up.statusCode ?? 0;
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      };
      if (current.kind === 'slow') setTimeout(answer, current.ms);
      else answer();
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // The operator's map: the environment's entries (re-copied as servers start), with `service` sent here.
  const sync = () => {
    let entries: Record<string, string> = {};
    try {
      entries = JSON.parse(readFileSync(envMapFile, 'utf8')).endpoints ?? {};
    } catch {
      // not written yet
    }
    const text = JSON.stringify({ endpoints: { ...entries, [service]: url } });
    let old = '';
    try {
      old = readFileSync(mapFile, 'utf8');
    } catch {
      // first write
    }
    if (old !== text) writeFileSync(mapFile, text);
  };
  sync();
  const timer = setInterval(sync, 500);
  return {
    url,
    calls,
    setMode(next: FaultMode) {
      mode = next;
    },
    /** Calls seen since `since` (ms since the epoch). */
    since: (since: number) => calls.filter((c) => c.at >= since),
    async close() {
      clearInterval(timer);
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
