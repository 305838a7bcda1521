// The operator's own Keycloak identity: the bootstrap admin creates the service-account client once (lightweight
// tokens, realm role create-realm) and every later call uses it; the bootstrap admin Secret can then go; a client that
// Keycloak no longer accepts is re-keyed with the bootstrap admin, or, without one, is OperatorIdentityLost.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { manualClock } from '../../../src/core/clock.ts';
import type { KubeObject } from '../../../src/operator/compile/kube-object.ts';
import { createAdminClient } from '../../../src/operator/keycloak/admin-client.ts';
import { keycloakAdmins } from '../../../src/operator/keycloak/admins.ts';
import {
  OperatorClientConflictError,
  OperatorIdentityLostError,
} from '../../../src/operator/keycloak/operator-client.ts';
import type { Deps } from '../../../src/operator/runtime/deps.ts';
import { loadEndpointMap } from '../../../src/operator/runtime/endpoint-map.ts';
import { secretValue } from '../../../src/operator/runtime/read-secret.ts';
import { type FakeKube, fakeKube } from '../controllers/fake-kube.ts';
import { handleMaster, type MasterState, masterState } from './fake-master.ts';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const server = {
  apiVersion: 'realmforge.dev/v1',
  kind: 'IdentityServer',
  metadata: { name: 'kc', namespace: 'identity', uid: 'srv-uid' },
  spec: { image: { tag: '26.0.7' }, database: { cluster: 'pg' } },
  status: { phase: 'Ready' },
};
const adminSecret: KubeObject = {
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name: 'kc-admin-credentials', namespace: 'identity' },
  data: { username: b64('admin'), password: b64('bootstrap-pw') },
};

async function keycloak(state: MasterState) {
  const http = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => {
      body += d;
    });
    req.on('end', () => {
      if (!handleMaster(state, req, res, body)) res.writeHead(404).end();
    });
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return { url, close: () => new Promise<void>((r) => http.close(() => r())) };
}

function admins(kube: FakeKube, url: string) {
  const clock = manualClock();
  const deps: Deps = {
    kube,
    http: (u, init) => fetch(u, init),
    endpoints: loadEndpointMap(JSON.stringify({ endpoints: { 'kc.identity.svc:8080': url } })),
    clock,
    random: () => 0.5,
    newPassword: () => 'unused',
    logger: { info() {}, warn() {}, error() {} },
  };
  const plain = {
    http: deps.http,
    limiter: { acquire: async () => {}, stop: async () => {} },
    clock,
    random: () => 0.5,
    count: () => {},
    canWrite: () => true,
    sleep: async () => {},
  };
  return keycloakAdmins(deps, (u, identity) => createAdminClient(u, identity, plain));
}

const stored = (kube: FakeKube, key: string) =>
  secretValue(kube.find('Secret', 'identity', 'kc-operator-client'), key);

test('the bootstrap admin creates the operator client once; every later call uses the client', async () => {
  const state = masterState('bootstrap-pw');
  const kc = await keycloak(state);
  try {
    const kube = fakeKube([adminSecret]);
    const first = await admins(kube, kc.url).forServer(server as never);
    assert.is((await first.call('team', 'GET', '/master')).status, 200);
    assert.equal(state.client?.roles, ['create-realm']);
    assert.ok(state.client?.lightweight);
    assert.is(stored(kube, 'client-id'), 'realmforge-operator');
    assert.is(stored(kube, 'client-secret'), state.client?.secret);
    assert.equal(
      kube.find('Secret', 'identity', 'kc-operator-client')?.metadata.ownerReferences?.map((r) => r.uid),
      ['srv-uid'],
    );
    assert.is(kube.events[0]?.reason, 'OperatorClientCreated');
    assert.is(state.calls.at(-1), 'GET  (operator)');
    // The bootstrap admin can go: a restarted operator keeps working with its own client.
    kube.objects.delete('Secret/identity/kc-admin-credentials');
    state.calls.length = 0;
    const later = await admins(kube, kc.url).forServer(server as never);
    assert.is((await later.call('team', 'GET', '/master')).status, 200);
    assert.equal(state.calls, ['token client_credentials realmforge-operator', 'GET  (operator)']);
    assert.is(state.secrets, 1, 'created once, never re-keyed');
  } finally {
    await kc.close();
  }
});

test('a client Keycloak refuses is re-keyed with the bootstrap admin; without one it is OperatorIdentityLost', async () => {
  const state = masterState('bootstrap-pw');
  const kc = await keycloak(state);
  try {
    const kube = fakeKube([adminSecret]);
    const keycloakAdmin = await admins(kube, kc.url).forServer(server as never);
    await keycloakAdmin.call('team', 'GET', '/master');
    // Someone regenerates the client's secret in Keycloak: the stored one is refused.
    if (state.client) state.client.secret = 'changed-in-keycloak';
    const fresh = await admins(kube, kc.url).forServer(server as never);
    assert.is((await fresh.call('team', 'GET', '/master')).status, 200);
    assert.is(stored(kube, 'client-secret'), state.client?.secret);
    assert.is(kube.events.at(-1)?.reason, 'OperatorClientRotated');
    // Refused again, and no bootstrap admin left to re-key it.
    if (state.client) state.client.secret = 'changed-again';
    kube.objects.delete('Secret/identity/kc-admin-credentials');
    const lost = await admins(kube, kc.url).forServer(server as never);
    try {
      await lost.call('team', 'GET', '/master');
      assert.unreachable();
    } catch (e) {
      assert.instance(e, OperatorIdentityLostError);
      assert.is((e as OperatorIdentityLostError).reason, 'OperatorIdentityLost');
      assert.match(
        (e as Error).message,
        /Keycloak refuses the credentials in Secret identity\/kc-operator-client/,
      );
      assert.match((e as Error).message, /create kc-admin-credentials with keys username and password/);
    }
  } finally {
    await kc.close();
  }
});

test('a realmforge-operator client in master that we did not create is a named conflict: no role, no new secret', async () => {
  const state = masterState('bootstrap-pw');
  // Made by a person: the same clientId, without realmforge's mark.
  state.client = { id: 'theirs', secret: 'their-secret', roles: [], lightweight: false, attributes: {} };
  const kc = await keycloak(state);
  try {
    const kube = fakeKube([adminSecret]);
    try {
      await admins(kube, kc.url).forServer(server as never);
      assert.unreachable();
    } catch (e) {
      assert.instance(e, OperatorClientConflictError);
      assert.is((e as OperatorClientConflictError).reason, 'OperatorClientConflict');
      assert.match((e as Error).message, /master already has a client realmforge-operator/);
      assert.match((e as Error).message, /delete or rename that client in master/);
    }
    // It was looked up, and nothing was written to it.
    assert.ok(state.calls.includes('GET /clients?clientId=realmforge-operator'), state.calls.join('; '));
    assert.equal(
      state.calls.filter((c) => !c.startsWith('GET') && !c.startsWith('token')),
      [],
    );
    assert.equal(state.client.roles, []);
    assert.is(state.client.secret, 'their-secret');
    assert.is(kube.find('Secret', 'identity', 'kc-operator-client'), undefined);
    // Once marked as ours (the client an earlier run created), the same call re-keys it.
    state.client.attributes = { 'realmforge.dev/owner': 'operator' };
    const admin = await admins(kube, kc.url).forServer(server as never);
    assert.is((await admin.call('team', 'GET', '/master')).status, 200);
    assert.equal(state.client.roles, ['create-realm']);
  } finally {
    await kc.close();
  }
});

test('a <server>-operator-client Secret the server does not control is a conflict: never read, never rewritten', async () => {
  const state = masterState('bootstrap-pw');
  const kc = await keycloak(state);
  try {
    const theirs: KubeObject = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'kc-operator-client', namespace: 'identity' },
      data: { 'client-id': b64('realmforge-operator'), 'client-secret': b64('theirs') },
    };
    const kube = fakeKube([adminSecret, theirs]);
    try {
      await admins(kube, kc.url).forServer(server as never);
      assert.unreachable();
    } catch (e) {
      assert.is((e as { reason?: string }).reason, 'ChildNameConflict');
      assert.match((e as Error).message, 'Secret identity/kc-operator-client already exists');
    }
    assert.equal(kube.writes, []);
    assert.equal(state.calls, [], 'Keycloak was not asked either');
    assert.is(stored(kube, 'client-secret'), 'theirs');
  } finally {
    await kc.close();
  }
});

test('Keycloak 25 keeps the bootstrap admin: no client is created (its admin API refuses lightweight tokens)', async () => {
  const state = masterState('bootstrap-pw');
  const kc = await keycloak(state);
  try {
    const kube = fakeKube([adminSecret]);
    const old = { ...server, spec: { ...server.spec, image: { tag: '25.0.6' } } };
    const admin = await admins(kube, kc.url).forServer(old as never);
    assert.is((await admin.call('team', 'GET', '/master')).status, 200);
    assert.is(state.client, undefined);
    assert.equal(state.calls, ['token password admin-cli', 'GET ']);
    // Only the key of the realm identities is kept: no client credentials.
    assert.equal(Object.keys(kube.find('Secret', 'identity', 'kc-operator-client')?.data ?? {}), [
      'realm-key',
    ]);
  } finally {
    await kc.close();
  }
});

test('one Keycloak client is handed out as one object, so what is cached per client (server info) is found again', async () => {
  const state = masterState('bootstrap-pw');
  const kc = await keycloak(state);
  try {
    const kube = fakeKube([adminSecret]);
    const all = admins(kube, kc.url);
    const first = await all.forServer(server as never);
    const second = await all.forServer(server as never);
    assert.is(first, second);
    const other = await all
      .forServer({ ...server, metadata: { ...server.metadata, name: 'kc2' } } as never)
      .catch(() => undefined);
    assert.is.not(other, first);
  } finally {
    await kc.close();
  }
});

test.run();
