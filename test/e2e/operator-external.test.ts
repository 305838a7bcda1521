// An existing Keycloak (IdentityServer spec.external): the test environment's own harness Keycloak, which no
// IdentityServer deployed. The operator deploys nothing for it, reports it Ready with the version Keycloak states,
// and manages realms and clients on it as on a deployed one: Ready, drift reverted, deleted; a realm made by hand
// before (not adopted) and master are left exactly as they were, and deleting the IdentityServer leaves Keycloak.
// The same Keycloak behind a fault proxy answering 431 shows AdminTokenTooLarge; and with a namespace limit of
// 1 TPS, a client in another namespace goes before 20 clients queued in one namespace.
import { randomUUID } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { eventually, type TestEnv } from '../../scripts/testenv/harness.ts';
import { getResource, waitStatus } from '../../scripts/testenv/identity-fixtures.ts';
import { grantSecretAccess, type OperatorProcess } from '../../scripts/testenv/operator-process.ts';
import { openRecord } from '../../src/operator/keycloak/collections/record.ts';
import { faultProxy } from './helpers/fault-proxy.ts';
import { keycloakAdminApi } from './helpers/keycloak-admin.ts';
import { type OperatorSuite, operatorSuite } from './helpers/operator-suite.ts';

let suite: OperatorSuite;
let env: TestEnv;
let operator: OperatorProcess;
let ns: string;
let admin: ReturnType<typeof keycloakAdminApi>;
const suffix = randomUUID().slice(0, 6);
const handMade = `hand-made-${suffix}`;
const tenant = `ext-tenant-${suffix}`;
let masterBefore: Record<string, unknown>;

const realm = (name: string, spec: Record<string, unknown>) => ({
  apiVersion: 'realmforge.dev/v1',
  kind: 'IdentityRealm',
  metadata: { name, namespace: ns },
  spec: { serverRef: { name: 'existing' }, ...spec },
});
/** master as compared before and after: its settings, without what Keycloak itself moves. */
const masterSettings = async () => {
  const {
    id,
    realm: name,
    displayName,
    enabled,
    attributes,
    sslRequired,
    accessTokenLifespan,
  } = await admin('GET', '/master');
  return { id, name, displayName, enabled, attributes, sslRequired, accessTokenLifespan };
};

test.before(async () => {
  suite = await operatorSuite('ext', {
    database: false,
    // Before the operator ever sees this Keycloak: a realm made by hand, and master as it is.
    beforeStart: async (s) => {
      const kc = s.env.state.keycloak;
      if (!kc) throw new Error('the test environment has no harness Keycloak');
      admin = keycloakAdminApi(
        () => kc.httpUrl,
        async () => ({ username: kc.adminUsername, password: kc.adminPassword }),
      );
      s.onClose(() => admin('DELETE', `/${handMade}`).catch(() => undefined));
      await admin('POST', '', { realm: handMade, enabled: true, displayName: 'Made by hand' });
      masterBefore = await masterSettings();
      await s.env.apply({
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'harness-admin', namespace: s.ns },
        stringData: { username: kc.adminUsername, password: kc.adminPassword },
      } as never);
      return undefined;
    },
  });
  ({ env, ns, operator } = suite);
});
test.after(() => suite?.close());

test('an existing Keycloak is Ready with its own version; nothing is deployed for it', async () => {
  await env.apply({
    apiVersion: 'realmforge.dev/v1',
    kind: 'IdentityServer',
    metadata: { name: 'existing', namespace: ns },
    spec: { external: { url: env.state.keycloak?.httpUrl, credentialsSecret: 'harness-admin' } },
  } as never);
  const server = await waitStatus(
    env,
    'identityservers',
    ns,
    'existing',
    240_000,
    (s) => s.phase === 'Ready',
    'Ready',
  );
  assert.is(server.status.version, env.state.keycloak?.version);
  assert.is(server.status.endpoints.internal, env.state.keycloak?.httpUrl);
  for (const [group, plural] of [
    ['apis/apps/v1', 'deployments'],
    ['api/v1', 'services'],
    ['apis/networking.k8s.io/v1', 'ingresses'],
    ['apis/postgresql.cnpg.io/v1', 'databases'],
  ]) {
    const list = await env.request('GET', `/${group}/namespaces/${ns}/${plural}`);
    assert.equal(list.body.items, [], `no ${plural} for an existing Keycloak`);
  }
  // Keycloak 26: the admin account created the operator's own client (one per IdentityServer); kept beside.
  const kept = await env.core.readNamespacedSecret({ namespace: ns, name: 'existing-operator-client' });
  assert.is(
    Buffer.from(kept.data?.['client-id'] ?? '', 'base64').toString(),
    `realmforge-operator-${ns}-existing`,
  );
});

test('a realm and a client on it reach Ready, drift is reverted, a hand-made realm is refused', async () => {
  await env.apply(
    realm('tenant', { realmName: tenant, displayName: 'Tenant', clientAuthorizationGrants: [ns] }) as never,
  );
  await env.apply({
    apiVersion: 'realmforge.dev/v1',
    kind: 'IdentityClient',
    metadata: { name: 'web', namespace: ns },
    spec: { realmRef: { name: 'tenant' }, redirectUris: ['https://web.example.test/cb'] },
  } as never);
  await waitStatus(env, 'identityrealms', ns, 'tenant', 120_000, (s) => s.phase === 'Ready', 'Ready');
  await waitStatus(env, 'identityclients', ns, 'web', 120_000, (s) => s.phase === 'Ready', 'Ready');
  assert.is((await admin('GET', `/${tenant}`)).displayName, 'Tenant');
  assert.is((await admin('GET', `/${tenant}/clients?clientId=web`))[0]?.clientId, 'web');
  // Drift: someone edits the realm and deletes the client in Keycloak; the next drift interval (5 s) restores both.
  await admin('PUT', `/${tenant}`, { displayName: 'Edited by hand' });
  const [web] = await admin('GET', `/${tenant}/clients?clientId=web`);
  await admin('DELETE', `/${tenant}/clients/${web.id}`);
  await eventually('the drift to be reverted', 60_000, async () => {
    const live = await admin('GET', `/${tenant}`);
    const clients = await admin('GET', `/${tenant}/clients?clientId=web`);
    return live.displayName === 'Tenant' && clients.length === 1 ? true : undefined;
  });
  // A realm that exists without the operator's marker is not taken (no adoption asked for).
  await env.apply(realm('taken', { realmName: handMade, displayName: 'Not yours' }) as never);
  const refused = await waitStatus(
    env,
    'identityrealms',
    ns,
    'taken',
    60_000,
    (s) => s.phase === 'Failed',
    'refused',
  );
  assert.is(refused.status.reason, 'RealmNameConflict');
  const hand = await admin('GET', `/${handMade}`);
  assert.is(hand.displayName, 'Made by hand');
  assert.is(openRecord(hand).attributes?.['realmforge.dev/owner'], undefined);
});

test('deletion removes the operator realm only; the hand-made realm, master and Keycloak stay', async () => {
  await env.request('DELETE', `/apis/realmforge.dev/v1/namespaces/${ns}/identityrealms/taken`);
  await env.request('DELETE', `/apis/realmforge.dev/v1/namespaces/${ns}/identityclients/web`);
  await env.request('DELETE', `/apis/realmforge.dev/v1/namespaces/${ns}/identityrealms/tenant`);
  await eventually('the realm to be deleted from Keycloak', 60_000, async () =>
    (await admin('GET', `/${tenant}`)) === undefined &&
    (await getResource(env, 'identityrealms', ns, 'tenant')) === undefined
      ? true
      : undefined,
  );
  await env.request('DELETE', `/apis/realmforge.dev/v1/namespaces/${ns}/identityservers/existing`);
  await eventually('the IdentityServer to be gone', 30_000, async () =>
    (await getResource(env, 'identityservers', ns, 'existing')) === undefined ? true : undefined,
  );
  const hand = await admin('GET', `/${handMade}`);
  assert.is(hand?.displayName, 'Made by hand', 'the hand-made realm is untouched');
  assert.is(openRecord(hand).attributes?.['realmforge.dev/owner'], undefined);
  assert.equal(await masterSettings(), masterBefore, 'master is untouched');
  const realms = ((await admin('GET', '')) as { realm: string }[]).map((r) => r.realm);
  assert.ok(!realms.includes(tenant));
  assert.ok(realms.includes('master') && realms.includes(handMade));
  // Known, not of this feature: a reconcile of a realm whose finalizer was just released can re-apply the finalizer
  // list from a stale cache read after the object is gone (the apply would create it: spec Required); retried away.
  // Only this suite's: an environment runs suites one after the other, and an earlier suite's namespaces may still
  // be terminating (their resources reconciled, with errors of their own, by every operator in the environment).
  const errors = operator
    .logs()
    .filter(
      (l) =>
        l.level === 'error' &&
        (l.namespace === undefined || l.namespace === ns) &&
        !/is invalid: \[spec: Required value/.test(String(l.error)),
    );
  assert.equal(errors, [], 'no error in the operator log');
});

test('a 431 from Keycloak (the admin token too large for its headers) shows AdminTokenTooLarge', async () => {
  const harness = new URL(env.state.keycloak?.httpUrl ?? '').host;
  const proxy = await faultProxy(
    env.state.endpointMapFile,
    harness,
    join(tmpdir(), `ext-proxy-${suffix}.json`),
  );
  try {
    await env.apply({
      apiVersion: 'realmforge.dev/v1',
      kind: 'IdentityServer',
      metadata: { name: 'proxied', namespace: ns },
      spec: { external: { url: proxy.url, credentialsSecret: 'harness-admin' } },
    } as never);
    await waitStatus(env, 'identityservers', ns, 'proxied', 120_000, (s) => s.phase === 'Ready', 'Ready');
    await env.apply({
      ...realm('loud', { realmName: `ext-loud-${suffix}` }),
      spec: { serverRef: { name: 'proxied' }, realmName: `ext-loud-${suffix}` },
    } as never);
    await waitStatus(env, 'identityrealms', ns, 'loud', 120_000, (s) => s.phase === 'Ready', 'Ready');
    // Keycloak (here the proxy before it) refuses every admin call's headers; token requests still pass.
    proxy.setMode({ kind: 'status', status: 431, path: /^\/admin\// });
    await env.request(
      'PATCH',
      `/apis/realmforge.dev/v1/namespaces/${ns}/identityrealms/loud`,
      { metadata: { annotations: { 'realmforge.dev/reconcile': String(Date.now()) } } },
      'application/merge-patch+json',
    );
    const event = await eventually('an AdminTokenTooLarge event for the realm', 60_000, async () => {
      const list = await env.request('GET', `/api/v1/namespaces/${ns}/events`);
      return (list.body.items as any[]).find(
        (e) => e.involvedObject?.name === 'loud' && e.reason === 'AdminTokenTooLarge',
      );
    });
    assert.match(event.message, /HTTP 431: the request headers are too large/);
    assert.match(event.message, /QUARKUS_HTTP_LIMITS_MAX_HEADER_SIZE/);
    const server = await waitStatus(
      env,
      'identityservers',
      ns,
      'proxied',
      60_000,
      (s) => s.reason === 'AdminTokenTooLarge',
      'AdminTokenTooLarge',
    );
    assert.not.match(server.status.message, /KeycloakUnavailable/);
    proxy.setMode({ kind: 'pass' });
    await waitStatus(
      env,
      'identityservers',
      ns,
      'proxied',
      60_000,
      (s) => s.phase === 'Ready',
      'Ready again',
    );
    await env.request('DELETE', `/apis/realmforge.dev/v1/namespaces/${ns}/identityrealms/loud`);
    await eventually('realm loud to be deleted', 60_000, async () =>
      (await getResource(env, 'identityrealms', ns, 'loud')) === undefined ? true : undefined,
    );
  } finally {
    await proxy.close();
  }
});

test('at a namespace limit of 1 TPS, 20 clients queued in one namespace do not slow a client in another', async () => {
  // 1 call per second in each namespace, no burst (the default burst of 10 would hide the limit for one client);
  // resyncs far apart so that they do not compete with what is measured.
  await operator.stop();
  operator = await suite.startOperator({
    args: ['--drift-interval=10m'],
    env: { KEYCLOAK_API_NAMESPACE_RATE_LIMIT_TPS: '1', KEYCLOAK_API_NAMESPACE_RATE_LIMIT_BURST: '1' },
  });
  // The server deleted above comes back (its client in master is found again and re-keyed).
  await env.apply({
    apiVersion: 'realmforge.dev/v1',
    kind: 'IdentityServer',
    metadata: { name: 'existing', namespace: ns },
    spec: { external: { url: env.state.keycloak?.httpUrl, credentialsSecret: 'harness-admin' } },
  } as never);
  await waitStatus(env, 'identityservers', ns, 'existing', 120_000, (s) => s.phase === 'Ready', 'Ready');
  // Each measured client in a namespace of its own, so that nothing else spends that namespace's calls.
  const busy = await env.namespace('busy');
  const [warm, calm, beside] = [
    await env.namespace('warm'),
    await env.namespace('calm'),
    await env.namespace('beside'),
  ];
  for (const n of [busy, warm, calm, beside]) await grantSecretAccess(env, n);
  await env.apply(
    realm('fair', {
      realmName: `ext-fair-${suffix}`,
      clientAuthorizationGrants: [busy, warm, calm, beside],
    }) as never,
  );
  await waitStatus(env, 'identityrealms', ns, 'fair', 300_000, (s) => s.phase === 'Ready', 'Ready');
  const client = (namespace: string, name: string) => ({
    apiVersion: 'realmforge.dev/v1',
    kind: 'IdentityClient',
    metadata: { name, namespace },
    spec: { realmRef: { name: 'fair', namespace: ns }, redirectUris: ['https://app.example.test/cb'] },
  });
  const readyIn = async (namespace: string, name: string) => {
    const started = Date.now();
    await env.apply(client(namespace, name) as never);
    await waitStatus(env, 'identityclients', namespace, name, 180_000, (s) => s.phase === 'Ready', 'Ready');
    return Date.now() - started;
  };
  await readyIn(warm, 'warm-up'); // token and server info cached, as for the runs measured below
  const alone = await readyIn(calm, 'alone');
  for (let i = 0; i < 20; i++) await env.apply(client(busy, `queued-${i}`) as never);
  const loaded = await readyIn(beside, 'beside-busy');
  const queued = await Promise.all(
    Array.from({ length: 20 }, (_, i) => getResource(env, 'identityclients', busy, `queued-${i}`)),
  );
  const waiting = queued.filter((c) => c?.status?.phase !== 'Ready').length;
  // The runner keeps a passing suite's output to itself: the figures also go to a file (REALMFORGE_E2E_FIGURES).
  const line = `fairness: alone ${alone} ms, beside 20 queued clients ${loaded} ms (${(loaded / alone).toFixed(2)}x); ${waiting} of 20 still queued\n`;
  process.stdout.write(line);
  appendFileSync(process.env.REALMFORGE_E2E_FIGURES ?? join(tmpdir(), 'realmforge-e2e-figures.log'), line);
  // Fairness as an order, not a timing: a client queued behind the busy namespace would be Ready only after most
  // of its 20 clients (1 TPS, several calls each); beside it, it goes before all but a few.
  assert.ok(
    waiting >= 15,
    `the client beside the busy namespace waited for it: only ${waiting} of 20 queued clients were still queued`,
  );
});

test.run();
