// An IdentityServer with spec.external (an existing Keycloak): nothing is deployed, its status comes from the
// Keycloak's own server info through the operator's identity, and the identity is kept in <server>-operator-client
// so that realm and client reconciles never read the user's Secret: a client of master is used as given, an admin
// account creates the operator's own client on 26 and is used as is on 25. Bad settings are named on status.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { manualClock } from '../../../../src/core/clock.ts';
import type { KubeObject } from '../../../../src/operator/compile/kube-object.ts';
import {
  identityServerController,
  type ServerDeps,
} from '../../../../src/operator/controllers/identity-server/identity-server.ts';
import { createAdminClient } from '../../../../src/operator/keycloak/admin-client.ts';
import { keycloakAdmins } from '../../../../src/operator/keycloak/admins.ts';
import { loadEndpointMap } from '../../../../src/operator/runtime/endpoint-map.ts';
import { secretValue } from '../../../../src/operator/runtime/read-secret.ts';
import { handleMaster, type MasterState, masterState } from '../../keycloak/fake-master.ts';
import { type FakeKube, fakeKube } from '../fake-kube.ts';

const b64 = (s: string) => Buffer.from(s).toString('base64');

/** master as fake-master.ts has it, plus GET /admin/serverinfo stating `version` to any bearer it accepts. */
async function existingKeycloak(state: MasterState, version: string) {
  const http = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => {
      body += d;
    });
    req.on('end', () => {
      if (req.url === '/admin/serverinfo') {
        const auth = req.headers.authorization ?? '';
        const ok = auth === 'Bearer t' || (state.client && auth === `Bearer op-${state.client.secret}`);
        state.calls.push('GET serverinfo');
        res.writeHead(ok ? 200 : 401).end(JSON.stringify(ok ? { systemInfo: { version } } : {}));
      } else if (!handleMaster(state, req, res, body)) res.writeHead(404).end();
    });
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return { url, close: () => new Promise<void>((r) => http.close(() => r())) };
}

const server = (url: string, extra: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'realmforge.dev/v1',
  kind: 'IdentityServer',
  metadata: { name: 'existing', namespace: 'identity', uid: 'srv-uid', generation: 1 },
  spec: { external: { url, credentialsSecret: 'kc-login', ...extra } },
});
const login = (data: Record<string, string>): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name: 'kc-login', namespace: 'identity' },
  data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, b64(v)])),
});

function deps(kube: FakeKube): ServerDeps {
  const clock = manualClock();
  const base = {
    kube,
    http: (u: string, init?: RequestInit) => fetch(u, init),
    endpoints: loadEndpointMap(undefined),
    clock,
    random: () => 0.5,
    newPassword: () => 'unused',
    logger: { info() {}, warn() {}, error() {} },
  };
  const plain = {
    http: base.http,
    limiter: { acquire: async () => {}, stop: async () => {} },
    clock,
    random: () => 0.5,
    count: () => {},
    canWrite: () => true,
    sleep: async () => {},
    attempts: 1,
  };
  return { ...base, admins: keycloakAdmins(base, (u, identity) => createAdminClient(u, identity, plain)) };
}

const statusOf = (kube: FakeKube) =>
  (kube.find('IdentityServer', 'identity', 'existing')?.status ?? {}) as Record<string, any>;
const kept = (kube: FakeKube, key: string) =>
  secretValue(kube.find('Secret', 'identity', 'existing-operator-client'), key);

test('an admin account on Keycloak 26: Ready with its version, the operator client created, nothing deployed', async () => {
  const state = masterState('admin-pw');
  const kc = await existingKeycloak(state, '26.7.3');
  try {
    const kube = fakeKube([server(`${kc.url}/`), login({ username: 'admin', password: 'admin-pw' })]);
    const out = await identityServerController(deps(kube))('identity/existing');
    const status = statusOf(kube);
    assert.is(status.phase, 'Ready', status.message);
    assert.is(status.version, '26.7.3');
    assert.equal(status.endpoints, { internal: kc.url });
    assert.is(status.adminSecret, 'kc-login');
    assert.is(out.requeueAfterMs, undefined);
    // Only the identity Secret and the status: no Deployment, Service, Ingress, database or finalizer.
    assert.equal(kube.writes, [
      'apply Secret/identity/existing-operator-client',
      'status IdentityServer/identity/existing',
    ]);
    // Its own client per IdentityServer: two servers on one Keycloak never re-key each other's.
    assert.is(kept(kube, 'client-id'), 'realmforge-operator-identity-existing');
    assert.is(state.client?.clientId, 'realmforge-operator-identity-existing');
    assert.is(kept(kube, 'client-secret'), state.client?.secret);
    assert.equal(state.client?.roles, ['create-realm']);
    assert.is(kube.events[0]?.reason, 'OperatorClientCreated');
    // The account is needed only once: later reconciles use the operator's client.
    state.calls.length = 0;
    kube.writes.length = 0;
    await identityServerController(deps(kube))('identity/existing');
    assert.equal(state.calls, [
      'token client_credentials realmforge-operator-identity-existing',
      'GET serverinfo',
    ]);
    assert.equal(kube.writes, [], 'steady state writes nothing');
    // The account's Secret can go: the operator keeps working with its own client.
    kube.objects.delete('Secret/identity/kc-login');
    await identityServerController(deps(kube))('identity/existing');
    assert.is(statusOf(kube).phase, 'Ready', statusOf(kube).message);
  } finally {
    await kc.close();
  }
});

test('a client of master is used as given, and re-read when the user changes the Secret', async () => {
  const state = masterState();
  state.client = { id: 'op-uuid', secret: 'given', roles: ['admin'], lightweight: true };
  const kc = await existingKeycloak(state, '26.7.3');
  try {
    const kube = fakeKube([
      server(kc.url),
      login({ 'client-id': 'realmforge-operator', 'client-secret': 'given' }),
    ]);
    const d = deps(kube);
    await identityServerController(d)('identity/existing');
    assert.is(statusOf(kube).phase, 'Ready', statusOf(kube).message);
    assert.is(kept(kube, 'client-secret'), 'given');
    assert.ok(!state.calls.some((c) => c.startsWith('POST')), 'nothing is created in Keycloak');
    assert.is(kube.events[0]?.reason, 'OperatorCredentialsStored');
    // The user rotates the client's secret in Keycloak and in the Secret: the next reconcile follows.
    state.client.secret = 'rotated';
    kube.put(login({ 'client-id': 'realmforge-operator', 'client-secret': 'rotated' }));
    await identityServerController(d)('identity/existing');
    assert.is(statusOf(kube).phase, 'Ready', statusOf(kube).message);
    assert.is(kept(kube, 'client-secret'), 'rotated');
    // Keycloak refuses the given client and the Secret still holds it: named, with the fix.
    state.client.secret = 'changed-in-keycloak';
    await identityServerController(d)('identity/existing');
    assert.is(statusOf(kube).phase, 'Failed');
    assert.is(statusOf(kube).reason, 'ExternalCredentialsRefused');
    assert.match(statusOf(kube).message, /Secret identity\/kc-login \(spec.external.credentialsSecret\)/);
  } finally {
    await kc.close();
  }
});

test('an admin account on Keycloak 25 is used as is: no client is created', async () => {
  const state = masterState('admin-pw');
  const kc = await existingKeycloak(state, '25.0.6');
  try {
    const kube = fakeKube([server(kc.url), login({ username: 'admin', password: 'admin-pw' })]);
    await identityServerController(deps(kube))('identity/existing');
    assert.is(statusOf(kube).phase, 'Ready', statusOf(kube).message);
    assert.is(statusOf(kube).version, '25.0.6');
    assert.is(state.client, undefined);
    assert.is(kept(kube, 'username'), 'admin');
  } finally {
    await kc.close();
  }
});

test('bad settings are named on status and looked at again soon; Keycloak below 25 is refused', async () => {
  const state = masterState('admin-pw');
  const kc = await existingKeycloak(state, '24.0.5');
  try {
    const missing = fakeKube([server(kc.url)]);
    const out = await identityServerController(deps(missing))('identity/existing');
    assert.is(statusOf(missing).phase, 'Failed');
    assert.is(statusOf(missing).reason, 'CredentialsMissing');
    assert.match(statusOf(missing).message, /Secret identity\/kc-login does not exist/);
    assert.is(out.requeueAfterMs, 10_000, 'a Secret created later is found without a watch');
    const noKeys = fakeKube([server(kc.url), login({ user: 'admin' })]);
    await identityServerController(deps(noKeys))('identity/existing');
    assert.match(
      statusOf(noKeys).message,
      /neither keys client-id and client-secret nor keys username and password/,
    );
    const noCa = fakeKube([
      server(kc.url.replace('http:', 'https:'), { caConfigMapRef: { name: 'trust', key: 'ca.crt' } }),
      login({ username: 'admin', password: 'admin-pw' }),
    ]);
    await identityServerController(deps(noCa))('identity/existing');
    assert.is(statusOf(noCa).reason, 'CaMissing');
    assert.match(
      statusOf(noCa).message,
      /spec.external.caConfigMapRef: ConfigMap identity\/trust does not exist/,
    );
    noCa.forbidden.add('ConfigMap/identity/trust');
    await identityServerController(deps(noCa))('identity/existing');
    assert.is(statusOf(noCa).reason, 'CaAccessDenied');
    assert.match(statusOf(noCa).message, /grant its ServiceAccount get on configmaps in identity/);
    const old = fakeKube([server(kc.url), login({ username: 'admin', password: 'admin-pw' })]);
    await identityServerController(deps(old))('identity/existing');
    assert.is(statusOf(old).reason, 'UnsupportedVersion');
    assert.match(statusOf(old).message, /is 24.0.5, below the minimum version 25.0.0/);
    const down = fakeKube([server('http://127.0.0.1:1'), login({ username: 'admin', password: 'admin-pw' })]);
    await identityServerController(deps(down))('identity/existing');
    assert.is(statusOf(down).phase, 'Provisioning');
    assert.is(statusOf(down).reason, 'KeycloakUnavailable');
  } finally {
    await kc.close();
  }
});

test('the CA of spec.external is what the admin client for that Keycloak trusts', async () => {
  const pem = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
  const kube = fakeKube([
    server('https://keycloak.example.com', { caSecretRef: { name: 'trust', key: 'ca.crt' } }),
    login({ 'client-id': 'realmforge-operator', 'client-secret': 'given' }),
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'trust', namespace: 'identity' },
      data: { 'ca.crt': b64(pem) },
    },
  ]);
  const base = deps(kube);
  const seen: (string | undefined)[] = [];
  const admins = keycloakAdmins(base, (url, _identity, ca) => {
    seen.push(ca);
    return {
      baseUrl: url,
      call: async () => ({ status: 200, body: { systemInfo: { version: '26.7.3' } } }),
    } as never;
  });
  await identityServerController({ ...base, admins })('identity/existing');
  assert.is(statusOf(kube).phase, 'Ready', statusOf(kube).message);
  assert.ok(seen.length > 0 && seen.every((ca) => ca === pem), 'every client for it trusts the CA');
});

test.run();
