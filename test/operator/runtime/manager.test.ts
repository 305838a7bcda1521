// The manager against an API server on 127.0.0.1: each controller is woken by what it declares. A realm's own
// status write does not reconcile the realm again but wakes the clients that use it; a drift interval re-queues
// the kinds marked for resync, each key at its own random point of the interval.
import type { ServerResponse } from 'node:http';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { manualClock, systemClock } from '../../../src/core/clock.ts';
import { identityClientDefinition } from '../../../src/operator/controllers/identity-client/controller.ts';
import { identityRealmDefinition } from '../../../src/operator/controllers/identity-realm/controller.ts';
import { type ControllerDefinition, startManager } from '../../../src/operator/runtime/manager.ts';
import { createMetrics } from '../../../src/operator/runtime/metrics.ts';
import { fakeApiServer, json } from './fake-api-server.ts';

const quiet = { info() {}, warn() {}, error() {} };
const obj = (kind: string, name: string, rv: string, spec: unknown, status?: unknown) => ({
  apiVersion: 'realmforge.dev/v1',
  kind,
  metadata: { name, namespace: 'team', resourceVersion: rv, generation: 1 },
  spec,
  ...(status ? { status } : {}),
});

async function until(what: string, check: () => boolean): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

test('controllers are woken by what they declare; own status writes wake dependants only; resync re-queues', async () => {
  const realm = obj('IdentityRealm', 'r1', '1', { serverRef: { name: 'kc' } });
  const clients = [
    obj('IdentityClient', 'c1', '2', { realmRef: { name: 'r1' } }),
    obj('IdentityClient', 'c2', '3', { realmRef: { name: 'other' } }),
  ];
  let realmWatch: ServerResponse | undefined;
  const api = await fakeApiServer((req, res) => {
    const watching = req.query.get('watch') === '1';
    if (req.path.endsWith('/identityrealms')) {
      if (!watching) return json(res, 200, { items: [realm], metadata: { resourceVersion: '3' } });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.flushHeaders();
      realmWatch = res;
      return true;
    }
    const lists: Record<string, unknown[]> = { identityclients: clients, identityservers: [] };
    const list = lists[req.path.split('/').pop() ?? ''];
    if (list) {
      if (!watching) return json(res, 200, { items: list, metadata: { resourceVersion: '3' } });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.flushHeaders();
      return true;
    }
    return false;
  });
  const seen: string[] = [];
  const recorder = (def: ControllerDefinition, resync = false): ControllerDefinition => ({
    ...def,
    resync,
    reconcile: async (key) => {
      seen.push(`${def.kind} ${key}`);
      return {};
    },
  });
  const deps = {} as never;
  const clock = manualClock();
  let resyncs = 0;
  const manager = startManager(
    [recorder(identityRealmDefinition(deps)), recorder(identityClientDefinition(deps), true)],
    {
      loop: {
        clock,
        logger: quiet,
        metrics: createMetrics(),
        backoff: { baseMs: 10, maxMs: 50, random: () => 0 },
        concurrency: 2,
        // c1 resyncs at 0.25 of the interval, c2 at 0.75: spread, not all at the tick.
        random: () => (resyncs++ % 2 === 0 ? 0.25 : 0.75),
      },
      watch: {
        transport: api.transport,
        resources: api.resources,
        clock: systemClock,
        logger: quiet,
        backoff: { baseMs: 10, maxMs: 50, random: () => 0 },
      },
      driftIntervalMs: 60_000,
    },
  );
  const count = (entry: string) => seen.filter((s) => s === entry).length;
  try {
    await until('both watches listed and streaming', () => manager.synced() && realmWatch !== undefined);
    await until(
      'first reconciles',
      () => count('IdentityClient team/c2') === 1 && count('IdentityRealm team/r1') === 1,
    );
    const clientRuns = count('IdentityClient team/c1');
    assert.ok(clientRuns >= 1, 'the client is reconciled after the first list');
    // The realm's reconcile wrote its status: same generation, only the status changed.
    realmWatch?.write(
      `${JSON.stringify({ type: 'MODIFIED', object: { ...realm, metadata: { ...realm.metadata, resourceVersion: '9' }, status: { phase: 'Ready' } } })}\n`,
    );
    await until('the realm status wakes its client', () => count('IdentityClient team/c1') > clientRuns);
    assert.is(count('IdentityRealm team/r1'), 1, 'the realm is not reconciled for its own status write');
    assert.is(count('IdentityClient team/c2'), 1, 'a client of another realm is not woken');
    clock.advance(60_000);
    const c1 = count('IdentityClient team/c1');
    clock.advance(15_000);
    await until('the first resync', () => count('IdentityClient team/c1') === c1 + 1);
    assert.is(count('IdentityClient team/c2'), 1, 'c2 resyncs later in the interval, not with c1');
    clock.advance(30_000);
    await until('the second resync', () => count('IdentityClient team/c2') === 2);
    assert.is(count('IdentityRealm team/r1'), 1, 'realms are not resynced unless declared');
  } finally {
    await manager.stop();
    await api.close();
  }
});

test.run();
