// Writes to the API server: strict field validation on applies, 429/503 retried after a capped Retry-After, the
// leadership fence checked before every attempt and as a request is written (a replica deposed while its write
// waited for its credentials sends nothing) and aborting requests in flight, events aggregated by count.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { ManualClock } from '../../../src/core/clock.ts';
import type { KubeObject } from '../../../src/operator/compile/kube-object.ts';
import { leaderFence } from '../../../src/operator/runtime/fence.ts';
import { restKubeClient } from '../../../src/operator/runtime/kube-rest-client.ts';
import { fakeApiServer, json, status } from './fake-api-server.ts';

const deployment: KubeObject = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'kc', namespace: 'id' },
  spec: { replicas: 1 },
};

/** Waits (on the event loop, not on time) until the client has set a timer, then moves the clock by `ms`. */
async function advanceWhenWaiting(clock: ManualClock, ms: number) {
  while (clock.pending() === 0) await new Promise((r) => setImmediate(r));
  clock.advance(ms);
}

test('applies ask for strict field validation: an unknown field fails with its name', async () => {
  const api = await fakeApiServer((req, res) => {
    if (req.method !== 'PATCH') return false;
    // As the API server does with fieldValidation=Strict: unknown fields are an error, not a warning.
    if (req.query.get('fieldValidation') === 'Strict' && 'replicaz' in (req.body.spec ?? {}))
      return json(res, 422, status(422, '.spec.replicaz: field not declared in schema'));
    return json(res, 200, req.body);
  });
  try {
    const kube = restKubeClient(api.transport, api.resources, api.clock);
    await kube.apply(deployment);
    const error = await kube.apply({ ...deployment, spec: { replicaz: 1 } }).catch((e) => e);
    assert.is(error.kind, 'validation');
    assert.match(error.message, /applying Deployment id\/kc: .spec.replicaz: field not declared in schema/);
  } finally {
    await api.close();
  }
});

test('429 and 503 are retried after Retry-After, capped at 10 s, then the last answer is returned', async () => {
  let calls = 0;
  const api = await fakeApiServer((req, res) => {
    if (req.method !== 'PATCH') return false;
    calls++;
    if (calls === 1) {
      res.writeHead(429, { 'retry-after': '3600', 'content-type': 'application/json' });
      res.end(JSON.stringify(status(429, 'too many requests')));
      return true;
    }
    if (calls === 2) return json(res, 503, status(503, 'starting'));
    return json(res, 200, req.body);
  });
  try {
    const kube = restKubeClient(api.transport, api.resources, api.clock);
    const applied = kube.apply(deployment);
    const started = api.clock.now();
    await advanceWhenWaiting(api.clock, 10_000);
    await advanceWhenWaiting(api.clock, 2_000);
    await applied;
    assert.is(calls, 3);
    assert.is(api.clock.now() - started, 12_000, 'Retry-After 3600 s waited 10 s, then the 2 s backoff');
  } finally {
    await api.close();
  }
});

/** A client of `api` whose writes are fenced by `leading()`. */
const fencedKube = (api: Awaited<ReturnType<typeof fakeApiServer>>, leading: () => boolean) =>
  restKubeClient(api.transport, api.resources, api.clock, leaderFence(leading, 'to Kubernetes'));

test('the fence is checked before every attempt: a replica that lost the lease while waiting sends nothing more', async () => {
  let calls = 0;
  const api = await fakeApiServer((req, res) => {
    if (req.method !== 'DELETE') return false;
    calls++;
    return json(res, 429, status(429, 'too many requests'));
  });
  let leading = true;
  try {
    const kube = fencedKube(api, () => leading);
    const deleted = kube
      .delete({ apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'id', name: 'kc' })
      .catch((e) => e);
    while (api.clock.pending() === 0) await new Promise((r) => setImmediate(r));
    leading = false;
    api.clock.advance(10_000);
    const error = await deleted;
    assert.is(calls, 1);
    assert.is(error.kind, 'conflict');
    assert.match(error.message, /not the leader any more/);
  } finally {
    await api.close();
  }
});

test('losing leadership aborts a write in flight', async () => {
  let arrived: () => void = () => {};
  const seen = new Promise<void>((r) => {
    arrived = r;
  });
  const api = await fakeApiServer((req) => {
    if (req.method !== 'PATCH') return false;
    arrived();
    return new Promise<boolean>(() => {}); // never answers
  });
  try {
    const fence = leaderFence(() => true);
    const kube = restKubeClient(api.transport, api.resources, api.clock, fence);
    const applied = kube.apply(deployment).catch((e) => e);
    await seen;
    fence.lost();
    const error = await applied;
    assert.match(error.message, /not the leader any more|aborted/i);
  } finally {
    await api.close();
  }
});

test('a write whose credentials took until after the lease was lost is never sent', async () => {
  let gate: Promise<void> | undefined;
  let open = () => {};
  let asked = false;
  const api = await fakeApiServer((req, res) => (req.method === 'PATCH' ? json(res, 200, req.body) : false), {
    // An exec credential plugin or a token file read: the request waits for it after the fence's first check.
    authorization: async () => {
      asked = true;
      await gate;
      return 'Bearer test-token';
    },
  });
  let leading = true;
  try {
    const kube = fencedKube(api, () => leading);
    await kube.apply(deployment);
    const patches = () => api.calls().filter((r) => r.method === 'PATCH').length;
    assert.is(patches(), 1, 'a leader sends its write');
    gate = new Promise((r) => {
      open = r;
    });
    asked = false;
    const applied = kube.apply(deployment).catch((e) => e);
    while (!asked) await new Promise((r) => setImmediate(r));
    leading = false;
    open();
    const error = await applied;
    assert.is(error.kind, 'conflict', String(error));
    assert.match(error.message, /not the leader any more/);
    assert.is(patches(), 1, 'the deposed replica sent nothing');
  } finally {
    await api.close();
  }
});

test('a repeated event updates its count instead of creating a new object; a new reason or a gone event creates one', async () => {
  const created: string[] = [];
  const patched: unknown[] = [];
  let expired = false;
  const api = await fakeApiServer((req, res) => {
    if (req.method === 'POST' && req.path === '/api/v1/namespaces/id/events') {
      created.push(req.body.reason);
      return json(res, 201, { ...req.body, metadata: { name: `kc.${created.length}`, namespace: 'id' } });
    }
    if (req.method === 'PATCH' && req.path.startsWith('/api/v1/namespaces/id/events/')) {
      if (expired) return json(res, 404, status(404, 'gone'));
      assert.is(req.headers['content-type'], 'application/merge-patch+json');
      patched.push({ name: req.path.split('/').pop(), ...req.body });
      return json(res, 200, req.body);
    }
  });
  try {
    const kube = restKubeClient(api.transport, api.resources, api.clock);
    const server: KubeObject = {
      apiVersion: 'realmforge.dev/v1',
      kind: 'IdentityServer',
      metadata: { name: 'kc', namespace: 'id', uid: 'u1' },
    };
    const down = { type: 'Warning' as const, reason: 'KeycloakUnreachable', message: 'connection refused' };
    await kube.event(server, down);
    api.clock.advance(30_000);
    await kube.event(server, down);
    await kube.event(server, down);
    await kube.event(server, { type: 'Normal', reason: 'Ready', message: 'Keycloak answers' });
    assert.equal(created, ['KeycloakUnreachable', 'Ready']);
    assert.equal(patched, [
      { name: 'kc.1', count: 2, lastTimestamp: '2026-01-01T00:00:30.000Z' },
      { name: 'kc.1', count: 3, lastTimestamp: '2026-01-01T00:00:30.000Z' },
    ]);
    expired = true;
    await kube.event(server, down);
    assert.equal(created, ['KeycloakUnreachable', 'Ready', 'KeycloakUnreachable']);
  } finally {
    await api.close();
  }
});

test.run();
