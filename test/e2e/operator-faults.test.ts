// Faults between the operator and Keycloak, injected by a proxy placed through the endpoint map: a Keycloak that
// answers every call in 5 s keeps its server Ready and lets a new realm and client become Ready; answers lost
// after a create reached Keycloak make no duplicate; a minute of 429s and 500s costs at most 60 calls, with
// statuses that name the code, and the operator converges without a restart when Keycloak answers again; a
// create Keycloak refuses every time (500 to that request alone) is Failed with Keycloak's words.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { eventually, type TestEnv } from '../../scripts/testenv/harness.ts';
import { getResource, waitStatus } from '../../scripts/testenv/identity-fixtures.ts';
import type { OperatorProcess } from '../../scripts/testenv/operator-process.ts';
import { loadEndpointMap } from '../../src/operator/runtime/endpoint-map.ts';
import { faultProxy, type SeenCall } from './helpers/fault-proxy.ts';
import { type OperatorSuite, operatorSuite } from './helpers/operator-suite.ts';

let suite: OperatorSuite;
let env: TestEnv;
let operator: OperatorProcess;
let proxy: Awaited<ReturnType<typeof faultProxy>>;
let ns: string;

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
const ready = (s: { conditions?: { type: string; status: string }[] }) =>
  s.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Keycloak's admin API directly (not through the proxy), as the admin. */
async function keycloak(path: string): Promise<any> {
  const base = loadEndpointMap(env.state.endpointMapFile)
    .resolve(`http://idp.${ns}.svc:8080`)
    .replace(/\/$/, '');
  const secret = await env.core.readNamespacedSecret({ namespace: ns, name: 'idp-admin-credentials' });
  const text = (k: string) => Buffer.from(secret.data?.[k] ?? '', 'base64').toString('utf8');
  const token = await fetch(`${base}/realms/master/protocol/openid-connect/token`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'password',
      client_id: 'admin-cli',
      username: text('username'),
      password: text('password'),
    }),
  });
  const { access_token } = (await token.json()) as { access_token: string };
  const res = await fetch(`${base}/admin/realms${path}`, {
    headers: { authorization: `Bearer ${access_token}` },
  });
  return res.json();
}

test.before(async () => {
  suite = await operatorSuite('faults', {
    beforeStart: async (s) => {
      const mapFile = join(tmpdir(), `realmforge-faults-${process.pid}.json`);
      proxy = await faultProxy(s.env.state.endpointMapFile, `idp.${s.ns}.svc:8080`, mapFile);
      s.onClose(() => proxy.close());
      return { args: ['--leader-elect'], env: { REALMFORGE_ENDPOINT_MAP: mapFile, POD_NAME: 'replica-a' } };
    },
    server: {},
  });
  ({ env, ns, operator } = suite);
});
test.after(async () => {
  operator?.proc.kill('SIGCONT'); // never leave a stopped replica behind
  await suite?.close('SIGKILL');
});

test('every answer in 5 s: the server stays Ready, and a new realm and its client become Ready', async () => {
  proxy.setMode({ kind: 'slow', ms: 5000 });
  const phases = new Set<string>();
  let watching = true;
  const watch = (async () => {
    while (watching) {
      phases.add((await getResource(env, 'identityservers', ns, 'idp'))?.status?.phase);
      await sleep(1000);
    }
  })();
  try {
    await env.apply(realm('slow') as never);
    await env.apply(client('slow-web', 'slow') as never);
    await waitStatus(env, 'identityrealms', ns, 'slow', 240_000, ready, 'to be Ready');
    await waitStatus(env, 'identityclients', ns, 'slow-web', 240_000, ready, 'to be Ready');
  } finally {
    watching = false;
    await watch;
    proxy.setMode({ kind: 'pass' });
  }
  assert.equal([...phases], ['Ready'], 'the server never left Ready while Keycloak was slow');
});

test('a create whose answer is lost is read back, never sent twice: one realm, one client', async () => {
  const started = Date.now();
  proxy.setMode({ kind: 'lose', method: 'POST', path: /^\/admin\/realms$/ });
  await env.apply(realm('lost') as never);
  await waitStatus(env, 'identityrealms', ns, 'lost', 180_000, ready, 'to be Ready');
  const realmPosts = proxy.since(started).filter((c) => c.method === 'POST' && c.path === '/admin/realms');
  assert.equal(
    realmPosts.map((c) => c.answered),
    ['lost'],
    'the realm create was sent once',
  );
  proxy.setMode({ kind: 'lose', method: 'POST', path: /^\/admin\/realms\/lost\/clients$/ });
  await env.apply(client('lost-web', 'lost') as never);
  await waitStatus(env, 'identityclients', ns, 'lost-web', 180_000, ready, 'to be Ready');
  const clientPosts = proxy
    .since(started)
    .filter((c) => c.method === 'POST' && c.path === '/admin/realms/lost/clients');
  assert.equal(
    clientPosts.map((c) => c.answered),
    ['lost'],
    'the client create was sent once',
  );
  assert.is((await keycloak('/lost/clients?clientId=lost-web')).length, 1, 'one client in Keycloak');
});

/** The reason and message of a status, and of its Synced condition. */
const words = (s: any) =>
  `${s?.reason} ${s?.message} ${s?.conditions?.find((c: any) => c.type === 'Synced')?.message}`;

test('a minute of 429s then 500s: at most 60 calls, statuses that name the code, and convergence once it answers', async () => {
  const started = Date.now();
  const throttled = '{"error":"too many requests"}';
  proxy.setMode({ kind: 'status', status: 429, retryAfter: '3', body: throttled });
  await env.apply(realm('during') as never);
  await sleep(30_000);
  const server429 = (await getResource(env, 'identityservers', ns, 'idp'))?.status;
  const realm429 = (await getResource(env, 'identityrealms', ns, 'during'))?.status;
  proxy.setMode({ kind: 'status', status: 500, body: '{"error":"unknown_error"}' });
  await sleep(30_000);
  const calls = proxy.since(started).length;
  const server = (await getResource(env, 'identityservers', ns, 'idp'))?.status;
  const during = (await getResource(env, 'identityrealms', ns, 'during'))?.status;
  proxy.setMode({ kind: 'pass' });
  process.stderr.write(`operator-faults: ${calls} calls to Keycloak in 60 s of 429s and 500s\n`);
  assert.ok(calls <= 60, `${calls} calls in 60 s of 429s and 500s`);
  assert.not.ok(ready(during ?? {}), 'the realm is not Ready while Keycloak fails');
  for (const [what, status, code] of [
    ['server', server429, /HTTP 429 too many requests/],
    ['realm', realm429, /HTTP 429 too many requests/],
    ['server', server, /HTTP 500 unknown_error/],
    ['realm', during, /HTTP 500 unknown_error/],
  ] as const) {
    assert.match(words(status), code, `${what}: ${words(status)}`);
    assert.is(status?.reason, 'KeycloakUnavailable', `${what}: ${words(status)}`);
  }
  await waitStatus(
    env,
    'identityrealms',
    ns,
    'during',
    180_000,
    ready,
    'to be Ready after Keycloak recovered',
  );
  await waitStatus(
    env,
    'identityservers',
    ns,
    'idp',
    180_000,
    (s) => s.reason === 'Ready',
    'to be Ready again',
  );
  assert.is(operator.proc.exitCode, null, 'converged without a restart');
});

test("a client whose create Keycloak answers 500 every time is Failed with Keycloak's words, not KeycloakUnavailable", async () => {
  proxy.setMode({
    kind: 'status',
    status: 500,
    method: 'POST',
    path: /^\/admin\/realms\/during\/clients$/,
    body: '{"error":"unknown_error"}',
  });
  try {
    await env.apply(client('refused-web', 'during') as never);
    const failed = await waitStatus(
      env,
      'identityclients',
      ns,
      'refused-web',
      120_000,
      (s) => s.phase === 'Failed',
      'to be Failed',
    );
    assert.is(failed.status.reason, 'InvalidSpec');
    assert.match(
      failed.status.message,
      /Keycloak refused POST \/during\/clients again with HTTP 500 unknown_error/,
    );
    assert.not.ok(ready(failed.status), 'not Ready');
  } finally {
    proxy.setMode({ kind: 'pass' });
  }
});

/** A write to Keycloak's admin API (token requests are POSTs too, but write nothing). */
const isWrite = (c: SeenCall) => c.method !== 'GET' && c.path.startsWith('/admin/');

test("two replicas: a leader SIGSTOPped with writes in flight sends none after the new leader's first write", async () => {
  const mapB = join(tmpdir(), `realmforge-faults-b-${process.pid}.json`);
  const proxyB = await faultProxy(env.state.endpointMapFile, `idp.${ns}.svc:8080`, mapB);
  const b = await suite.startOperator({
    args: ['--leader-elect'],
    env: { REALMFORGE_ENDPOINT_MAP: mapB, POD_NAME: 'replica-b' },
  });
  try {
    assert.is(await b.counter('realmforge_leader'), 0, 'b stands by');
    const started = Date.now();
    proxy.setMode({ kind: 'slow', ms: 4000 });
    await env.apply(realm('handover') as never);
    await eventually('a write from the leader in flight', 60_000, async () =>
      proxy.since(started).some((c) => isWrite(c) && c.answered === 0) ? true : undefined,
    );
    operator.proc.kill('SIGSTOP');
    await eventually('b to take over', 60_000, async () =>
      (await b.counter('realmforge_leader')) === 1 ? true : undefined,
    );
    // Work only the new leader can do: its first write to Keycloak is this realm's creation.
    await env.apply(realm('after-handover') as never);
    const firstWrite = await eventually(
      'the new leader to write',
      120_000,
      async () => proxyB.since(started).find(isWrite)?.at,
    );
    operator.proc.kill('SIGCONT');
    await waitStatus(
      env,
      'identityrealms',
      ns,
      'handover',
      180_000,
      ready,
      'to be Ready under the new leader',
    );
    await waitStatus(env, 'identityrealms', ns, 'after-handover', 180_000, ready, 'to be Ready');
    // The timeout is cleared once the old leader exits: a pending timer would keep this process alive for a minute.
    let timeout: NodeJS.Timeout | undefined;
    const exited =
      operator.proc.exitCode ??
      (await Promise.race([
        new Promise<number | null>((r) => operator.proc.once('exit', (c) => r(c))),
        new Promise<'running'>((r) => {
          timeout = setTimeout(() => r('running'), 60_000);
        }),
      ]).finally(() => clearTimeout(timeout)));
    const late = proxy.since(firstWrite).filter(isWrite);
    assert.equal(late, [], 'no write from the old leader after the new one wrote');
    if (exited === 'running') {
      const tail = operator
        .logs()
        .slice(-15)
        .map((l) => JSON.stringify(l));
      assert.unreachable(
        `the old leader did not exit within 60 s of SIGCONT; its last log lines:\n${tail.join('\n')}`,
      );
    }
    assert.is(operator.proc.exitCode ?? exited, 1, 'the old leader exits when it finds the lease lost');
  } finally {
    proxy.setMode({ kind: 'pass' });
    await b.stop();
    await proxyB.close();
  }
});

test.run();
