// Faults of the processes around the operator, on one IdentityServer: the kube-apiserver process restarted while
// resources reconcile (watches recover without an operator restart), the operator SIGKILLed right after a create
// reached Keycloak (its successor makes no duplicate and rotates no credentials), the operator SIGKILLed in the
// middle of replacing a bound browser flow with OTP (a complete flow stays bound, logins need the OTP throughout,
// its successor finishes the change), and Keycloak unreachable for a minute (Ready held and Synced False on what
// was Ready, a new realm not Ready, calls in that minute bounded at the fault proxy, convergence once it is back).
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { eventually, type TestEnv } from '../../scripts/testenv/harness.ts';
import { getResource, waitStatus } from '../../scripts/testenv/identity-fixtures.ts';
import type { OperatorProcess } from '../../scripts/testenv/operator-process.ts';
import { restartApiserver } from '../../scripts/testenv/restart-apiserver.ts';
import { faultProxy } from './helpers/fault-proxy.ts';
import { type KeycloakAdmin, keycloakAdmin } from './helpers/keycloak-admin.ts';
import { type OperatorSuite, operatorSuite } from './helpers/operator-suite.ts';
import { loginPair, otpPerson, otpRealmSpec, wrongOutcomes } from './helpers/otp-login.ts';
import { recordWatch } from './helpers/recorded-watch.ts';
import { resyncs } from './helpers/resyncs.ts';

let suite: OperatorSuite;
let env: TestEnv;
let operator: OperatorProcess;
let proxy: Awaited<ReturnType<typeof faultProxy>>;
let kc: KeycloakAdmin;
let ns: string;
let mapFile: string;

const realm = (name: string) => ({
  apiVersion: 'realmforge.dev/v1',
  kind: 'IdentityRealm',
  metadata: { name, namespace: ns },
  spec: { serverRef: { name: 'idp' }, roles: [{ name: 'reader' }], clientAuthorizationGrants: [ns] },
});
const client = (name: string, realmName: string) => ({
  apiVersion: 'realmforge.dev/v1',
  kind: 'IdentityClient',
  metadata: { name, namespace: ns },
  spec: { realmRef: { name: realmName }, redirectUris: ['https://app.example.test/callback'] },
});
const ready = (s: { phase?: string }) => s.phase === 'Ready';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** The operator of this suite, its Keycloak calls sent through the fault proxy. */
const operatorThroughProxy = () => suite.startOperator({ env: { REALMFORGE_ENDPOINT_MAP: mapFile } });

test.before(async () => {
  suite = await operatorSuite('procfaults', {
    beforeStart: async (s) => {
      mapFile = join(tmpdir(), `realmforge-procfaults-${process.pid}.json`);
      proxy = await faultProxy(s.env.state.endpointMapFile, `idp.${s.ns}.svc:8080`, mapFile);
      s.onClose(() => proxy.close());
      return { env: { REALMFORGE_ENDPOINT_MAP: mapFile } };
    },
    server: {},
  });
  ({ env, ns, operator } = suite);
  kc = keycloakAdmin(env, ns);
});
test.after(() => suite?.close('SIGKILL'));

test('the kube-apiserver restarted while resources reconcile: watches recover, all converges, no operator restart', async () => {
  const pid = operator.proc.pid;
  await env.apply(realm('before') as never);
  await env.apply(client('before-web', 'before') as never);
  const { downMs } = await restartApiserver();
  console.log(`procfaults: kube-apiserver down for ${downMs} ms`);
  // Only a watch that came back delivers this one: a resync re-reads the objects the cache already knows.
  await env.apply(realm('after') as never);
  await env.apply(client('after-web', 'after') as never);
  for (const [plural, name] of [
    ['identityrealms', 'before'],
    ['identityclients', 'before-web'],
    ['identityrealms', 'after'],
    ['identityclients', 'after-web'],
  ] as const)
    await waitStatus(env, plural, ns, name, 180_000, ready, 'to be Ready after the API server restart');
  assert.is(operator.proc.exitCode, null, 'the operator kept running');
  assert.is(operator.proc.pid, pid);
});

test('the operator SIGKILLed right after a create reached Keycloak: no duplicate, no rotated secret, honest status', async () => {
  const statuses = await recordWatch(env, `/apis/realmforge.dev/v1/namespaces/${ns}/identityclients`, {});
  try {
    for (const step of ['realm', 'client'] as const) {
      const path = step === 'realm' ? /^\/admin\/realms$/ : /^\/admin\/realms\/crash\/clients$/;
      const started = Date.now();
      proxy.setMode({ kind: 'hold', method: 'POST', path });
      if (step === 'realm') await env.apply(realm('crash') as never);
      else await env.apply(client('crash-web', 'crash') as never);
      await eventually(`the ${step} create to reach Keycloak`, 120_000, async () =>
        proxy.since(started).some((c) => c.answered === 'held') ? true : undefined,
      );
      await operator.stop('SIGKILL');
      operator = await operatorThroughProxy();
    }
    const done = await waitStatus(env, 'identityclients', ns, 'crash-web', 180_000, ready, 'to be Ready');
    await waitStatus(env, 'identityrealms', ns, 'crash', 60_000, ready, 'to be Ready');
    const realms = (await kc.call('GET', '')) as { realm: string }[];
    assert.is(realms.filter((r) => r.realm === 'crash').length, 1, 'one realm');
    const clients = await kc.call('GET', '/crash/clients?clientId=crash-web');
    assert.is(clients.length, 1, 'one client');
    const live = await kc.call('GET', `/crash/clients/${clients[0].id}/client-secret`);
    const secret = await env.core.readNamespacedSecret({ namespace: ns, name: 'crash-web-credentials' });
    const held = Buffer.from(secret.data?.['client-secret'] ?? '', 'base64').toString('utf8');
    assert.is(held, live.value, 'the Secret holds the secret the client was created with');
    assert.is(done.status.clientUuid, clients[0].id);
    // The restarted operator takes the half-finished client as its own: never a conflict with itself.
    const reasons = statuses.changes.map((c) => c.object.status?.reason).filter(Boolean);
    assert.not.ok(reasons.includes('ClientIdConflict'), JSON.stringify(reasons));
    // Later resyncs keep it: the secret is not rotated by the restart.
    await resyncs(env, operator, 'IdentityClient', 2);
    const again = await kc.call('GET', `/crash/clients/${clients[0].id}/client-secret`);
    assert.is(again.value, live.value);
  } finally {
    proxy.setMode({ kind: 'pass' });
    await statuses.stop();
  }
});

test('the operator SIGKILLed in the middle of replacing a bound browser flow with OTP leaves a complete flow bound', async () => {
  const flowRealm = (version: 0 | 1) => ({
    apiVersion: 'realmforge.dev/v1',
    kind: 'IdentityRealm',
    metadata: { name: 'kf', namespace: ns },
    spec: { serverRef: { name: 'idp' }, ...otpRealmSpec(version) },
  });
  await env.apply(flowRealm(0) as never);
  await waitStatus(env, 'identityrealms', ns, 'kf', 120_000, ready, 'to be Ready');
  await otpPerson((method, path, body) => kc.call(method, path, body), 'kf');
  assert.equal(wrongOutcomes(await loginPair(kc.url(), 'kf')), [], 'before the change');
  try {
    // Held: the old version's delete, which comes after the bindings moved to the complete new version.
    const started = Date.now();
    proxy.setMode({ kind: 'hold', method: 'DELETE', path: /^\/admin\/realms\/kf\/authentication\/flows\// });
    await env.apply(flowRealm(1) as never);
    await eventually('the old flow delete to reach Keycloak', 120_000, async () =>
      proxy.since(started).some((c) => c.answered === 'held') ? true : undefined,
    );
    await operator.stop('SIGKILL');
    assert.equal(wrongOutcomes(await loginPair(kc.url(), 'kf')), [], 'the operator killed mid-change');
  } finally {
    proxy.setMode({ kind: 'pass' });
  }
  operator = await operatorThroughProxy();
  await eventually('the new version under its own alias, nothing left over', 120_000, async () => {
    const flows = ((await kc.call('GET', '/kf/authentication/flows')) as { alias: string }[]).map(
      (f) => f.alias,
    );
    const steps = (await kc.call('GET', '/kf/authentication/flows/otp-browser/executions')) as
      | { providerId?: string }[]
      | undefined;
    const bound = (await kc.call('GET', '/kf')).browserFlow;
    return !flows.some((a) => a.includes('-realmforge-next')) &&
      bound === 'otp-browser' &&
      steps?.some((e) => e.providerId === 'auth-cookie')
      ? true
      : undefined;
  });
  assert.equal(wrongOutcomes(await loginPair(kc.url(), 'kf')), [], 'after the successor finished it');
});

/** A condition of a status. */
const condition = (s: any, type: string) => s?.conditions?.find((c: any) => c.type === type);

test('Keycloak unreachable for a minute: Ready held, Synced False, calls in that minute bounded, a new realm not Ready, all recover', async () => {
  const pid = operator.proc.pid;
  const held = ['before', 'after', 'crash'];
  for (const name of held) await waitStatus(env, 'identityrealms', ns, name, 60_000, ready, 'to be Ready');
  const started = Date.now();
  proxy.setMode({ kind: 'refuse' });
  await env.apply(realm('outage') as never);
  const watched = new Map<string, any>();
  const read = async () => {
    watched.set('server', (await getResource(env, 'identityservers', ns, 'idp'))?.status);
    for (const name of [...held, 'outage'])
      watched.set(name, (await getResource(env, 'identityrealms', ns, name))?.status);
    watched.set('client', (await getResource(env, 'identityclients', ns, 'before-web'))?.status);
  };
  const readyFlips: string[] = [];
  let calls: number;
  try {
    // Ready is read every 5 s: it must never flip while Keycloak is gone.
    while (Date.now() < started + 60_000) {
      await read();
      for (const [name, status] of watched)
        if (name !== 'outage' && condition(status, 'Ready')?.status !== 'True') readyFlips.push(name);
      await sleep(Math.min(5000, Math.max(0, started + 60_000 - Date.now())));
    }
    calls = proxy.since(started).filter((c) => c.at < started + 60_000).length;
    await read();
  } finally {
    proxy.setMode({ kind: 'pass' });
  }
  console.log(`procfaults: calls to Keycloak in the minute it was unreachable: ${calls}`);
  assert.ok(calls <= 60, `at most 60 calls in the minute: ${calls}`);
  assert.equal([...new Set(readyFlips)], [], 'Ready held by the server, the realms and the client');
  const server = watched.get('server');
  assert.is(condition(server, 'Synced')?.status, 'False', 'the server is not Synced');
  assert.match(
    String(condition(server, 'Synced')?.message),
    /ECONNRESET|UND_ERR_SOCKET|socket|closed|circuit open|unreachable|refused/i,
    server?.message,
  );
  for (const name of ['before', 'client']) {
    const synced = condition(watched.get(name), 'Synced');
    assert.equal(
      [synced?.status, synced?.reason],
      ['False', 'KeycloakUnavailable'],
      `${name}: ${synced?.message}`,
    );
  }
  const during = watched.get('outage');
  assert.is.not(during?.phase, 'Ready');
  assert.is(condition(during, 'Ready')?.status, 'False', 'a realm made during the outage is not Ready');
  assert.ok(
    ['ServerNotReady', 'KeycloakUnavailable'].includes(during?.reason),
    `the realm says why: ${during?.reason} ${during?.message}`,
  );
  const synced = (s: any) =>
    condition(s, 'Ready')?.status === 'True' && condition(s, 'Synced')?.status === 'True';
  await waitStatus(
    env,
    'identityservers',
    ns,
    'idp',
    180_000,
    synced,
    'Ready and Synced once Keycloak is back',
  );
  for (const name of [...held, 'outage'])
    await waitStatus(
      env,
      'identityrealms',
      ns,
      name,
      180_000,
      synced,
      'Ready and Synced once Keycloak is back',
    );
  await waitStatus(env, 'identityclients', ns, 'before-web', 180_000, synced, 'Ready and Synced again');
  assert.ok(await kc.call('GET', '/outage'), 'the realm exists in Keycloak');
  assert.is(operator.proc.exitCode, null, 'converged without a restart');
  assert.is(operator.proc.pid, pid);
});

test.run();
