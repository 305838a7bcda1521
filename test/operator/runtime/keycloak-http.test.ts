// Keycloak's HTTP client checks a write's leadership fence again as it is written to its connection: a replica
// deposed while its write waited for a busy connection (paused by SIGSTOP or a stalled VM between its check and
// the send) sends nothing, while a read behind it still goes out.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { manualClock } from '../../../src/core/clock.ts';
import { type Exchange, exchange, keycloakRetry } from '../../../src/operator/keycloak/admin-exchange.ts';
import { circuitBreaker } from '../../../src/operator/keycloak/circuit-breaker.ts';
import { refusalMemory } from '../../../src/operator/keycloak/repeated-refusal.ts';
import type { HttpClient } from '../../../src/operator/runtime/deps.ts';
import { keycloakHttp } from '../../../src/operator/runtime/keycloak-http.ts';

const tick = () => new Promise((r) => setImmediate(r));
async function until(condition: () => boolean) {
  while (!condition()) await tick();
}

test('Keycloak: a write queued behind a busy connection when the lease is lost is never sent; a read behind it is', async () => {
  const seen: string[] = [];
  const held: ServerResponse[] = [];
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    if (req.url === '/a') held.push(res);
    else res.end('{}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // One connection, so the second and third requests wait for the first's.
  const dispatcher = new Agent({ connections: 1 });
  const started: string[] = [];
  const fetchOne = keycloakHttp(dispatcher);
  const http: HttpClient = (url, init) => {
    started.push(url);
    return fetchOne(url, init);
  };
  let leading = true;
  const clock = manualClock();
  const deps = {
    http,
    limiter: { acquire: async () => {}, stop: async () => {} },
    clock,
    count: () => {},
    canWrite: () => leading,
    breaker: circuitBreaker(base, clock),
    refusals: refusalMemory(),
    timeoutMs: 30_000,
    retry: keycloakRetry,
    sleep: async () => {},
  };
  const call = (method: string, path: string): Exchange => ({
    namespace: 'ns',
    method,
    url: `${base}${path}`,
    path,
    headers: {},
    body: method === 'GET' ? undefined : '{}',
    write: method !== 'GET',
    idempotent: true,
  });
  try {
    const first = exchange(deps, call('PUT', '/a'));
    await until(() => held.length === 1);
    const write = exchange(deps, call('PUT', '/b')).catch((e) => e);
    const read = exchange(deps, call('GET', '/c'));
    await until(() => started.length === 3);
    for (let i = 0; i < 10; i++) await tick();
    assert.equal(seen, ['PUT /a'], 'the second and third wait for the connection');
    leading = false;
    held[0]?.end('{}');
    assert.is((await first).status, 200);
    assert.is((await read).status, 200, 'the read behind the write went out on the connection');
    const error = await write;
    assert.is(error.kind, 'conflict', String(error));
    assert.match(error.message, /not the leader any more/);
    assert.equal(seen, ['PUT /a', 'GET /c'], 'the write was never sent');
  } finally {
    await dispatcher.close();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
});

test.run();
