// Clients in the real Keycloak beyond the basics, one IdentityServer for the whole suite (started with the
// feature client-secret-rotation): scheduled and manual secret rotation, rotation with a grace through the
// operator's realm client policy (tokens keep coming with the old and the new secret), the realm's own client
// policies, a steady resync that writes nothing, a SAML client whose metadata Keycloak serves with the configured
// entity ID and certificate, and authorization services decided by Keycloak.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { TestEnv } from '../../scripts/testenv/harness.ts';
import { kubectlWait, waitStatus } from '../../scripts/testenv/identity-fixtures.ts';
import type { OperatorProcess } from '../../scripts/testenv/operator-process.ts';
import { compactServerInfo } from '../../src/operator/keycloak/server-info.ts';
import { loadEndpointMap } from '../../src/operator/runtime/endpoint-map.ts';
import { type OperatorSuite, operatorSuite } from './helpers/operator-suite.ts';
import { resyncs } from './helpers/resyncs.ts';

let suite: OperatorSuite;
let env: TestEnv;
let operator: OperatorProcess;
let ns: string;
let team: string;

const client = (name: string, spec: Record<string, unknown>, annotations?: Record<string, string>) => ({
  apiVersion: 'realmforge.dev/v1',
  kind: 'IdentityClient',
  metadata: { name, namespace: team, ...(annotations ? { annotations } : {}) },
  spec: { realmRef: { name: 'apps', namespace: ns }, serviceAccount: { enabled: true }, ...spec },
});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The credentials Secret's client-id, client-secret and token endpoint (resolved for this machine). */
async function credentials(name: string) {
  const secret = await env.core.readNamespacedSecret({ namespace: team, name: `${name}-credentials` });
  const value = (k: string) => Buffer.from(secret.data?.[k] ?? '', 'base64').toString('utf8');
  const tokenUrl = loadEndpointMap(env.state.endpointMapFile).resolve(value('token-endpoint'));
  return { clientId: value('client-id'), secret: value('client-secret'), tokenUrl };
}

/** The status of a client_credentials token request with `secret`. */
async function tokenStatus(c: { clientId: string; tokenUrl: string }, secret: string): Promise<number> {
  const res = await fetch(c.tokenUrl, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: c.clientId,
      client_secret: secret,
    }),
  });
  await res.arrayBuffer();
  return res.status;
}

async function admin(
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; text: string }> {
  const creds = await env.core.readNamespacedSecret({ namespace: ns, name: 'idp-admin-credentials' });
  const text = (k: string) => Buffer.from(creds.data?.[k] ?? '', 'base64').toString('utf8');
  const url = loadEndpointMap(env.state.endpointMapFile)
    .resolve(`http://idp.${ns}.svc:8080`)
    .replace(/\/$/, '');
  const token = await fetch(`${url}/realms/master/protocol/openid-connect/token`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'password',
      client_id: 'admin-cli',
      username: text('username'),
      password: text('password'),
    }),
  });
  const bearer = ((await token.json()) as { access_token: string }).access_token;
  const res = await fetch(`${url}/admin/realms${path}`, {
    method,
    headers: {
      authorization: `Bearer ${bearer}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, text: await res.text() };
}

const writes = () => operator.writes();

test.before(async () => {
  suite = await operatorSuite('op-clients', {
    server: { additionalOptions: [{ name: 'features', value: 'client-secret-rotation' }] },
  });
  ({ env, ns, operator } = suite);
  team = await suite.namespace('apps-team');
  await env.apply({
    apiVersion: 'realmforge.dev/v1',
    kind: 'IdentityRealm',
    metadata: { name: 'apps', namespace: ns },
    spec: { serverRef: { name: 'idp' }, clientAuthorizationGrants: [team] },
  } as never);
  assert.match(await kubectlWait(env, 'identityrealm/apps', ns, 120), /condition met/);
  // The rotation tests wait for a period to pass: their clients' periods run from here, side by side.
  await env.apply(client('rotor', { secretRotation: { period: '20s' } }) as never);
  await env.apply(client('graceful', { secretRotation: { period: '40s', grace: '20s' } }) as never);
});
test.after(() => suite?.close());

test('the server info lists the enabled features as the operator reads them (kebab case, disabled ones left out)', async () => {
  const res = await admin('GET', '/../serverinfo');
  assert.is(res.status, 200);
  const raw = JSON.parse(res.text) as { features?: { name: string; enabled: boolean }[] };
  const info = compactServerInfo(raw);
  const scripts = raw.features?.find((f) => f.name.toLowerCase() === 'scripts');
  assert.is(scripts?.enabled, false, 'the preview feature scripts is listed, disabled');
  assert.ok(info.features, 'Keycloak lists its features');
  assert.ok(info.features?.has('client-secret-rotation'), 'enabled here by spec.additionalOptions');
  assert.not.ok(
    info.features?.has('declarative-ui'),
    'a preview feature not enabled is not listed as enabled',
  );
});

test('scheduled rotation: the Secret switches to a new secret that works, the old one is refused, an Event says so', async () => {
  assert.match(await kubectlWait(env, 'identityclient/rotor', team, 120), /condition met/);
  const first = await credentials('rotor');
  assert.is(await tokenStatus(first, first.secret), 200);
  let current = first;
  for (let i = 0; i < 120 && current.secret === first.secret; i++) {
    await sleep(500);
    current = await credentials('rotor');
  }
  assert.is.not(current.secret, first.secret, 'rotated within a minute of a 20s period');
  assert.is(await tokenStatus(current, current.secret), 200, 'the new secret works');
  const refused = await tokenStatus(first, first.secret);
  assert.ok([400, 401].includes(refused), `the old secret is refused (${refused})`);
  const events = await env.request('GET', `/api/v1/namespaces/${team}/events`);
  const rotations = (
    events.body.items as { reason: string; message: string; involvedObject: { name: string } }[]
  ).filter((e) => e.reason === 'SecretRotated' && e.involvedObject.name === 'rotor');
  assert.ok(rotations.length >= 1, 'an Event records the rotation');
  assert.not.ok(
    rotations.some((e) => e.message.includes(first.secret) || e.message.includes(current.secret)),
  );
  await env.request('DELETE', `/apis/realmforge.dev/v1/namespaces/${team}/identityclients/rotor`);
});

test('rotation with a grace: tokens keep coming through a rotation with the old secret (within grace) and the new one; after the grace the old one is refused', async () => {
  assert.match(await kubectlWait(env, 'identityclient/graceful', team, 120), /condition met/);
  const first = await credentials('graceful');
  assert.is(await tokenStatus(first, first.secret), 200);
  const failures: string[] = [];
  let current = first;
  let switchedAt = 0;
  let oldAccepted = 0;
  // Keep asking for tokens, as an application would, until well after the Secret switched.
  for (let i = 0; i < 400; i++) {
    const now = Date.now();
    if (switchedAt && now - switchedAt > 12_000) break;
    current = await credentials('graceful');
    if (current.secret !== first.secret && !switchedAt) switchedAt = now;
    const withCurrent = await tokenStatus(current, current.secret);
    if (withCurrent !== 200) failures.push(`${i}: the Secret's secret refused (${withCurrent})`);
    const withOld = await tokenStatus(first, first.secret);
    if (withOld !== 200) failures.push(`${i}: the old secret refused within the grace (${withOld})`);
    else if (switchedAt) oldAccepted++;
    await sleep(250);
  }
  assert.ok(switchedAt, 'the Secret switched to a new secret within the first period');
  assert.equal(failures, [], 'every request with the old (within grace) or the new secret succeeded');
  assert.ok(oldAccepted > 0, 'the old secret was used successfully after the switch');
  const policies = JSON.parse((await admin('GET', '/apps/client-policies/policies')).text).policies as {
    name: string;
  }[];
  assert.ok(
    policies.some((p) => p.name === 'realmforge-secret-rotation-20s'),
    'the grace policy is in the realm',
  );
  // The grace (20s from Keycloak's rotation, before the switch was seen) ends before the next rotation (40s).
  await sleep(Math.max(0, switchedAt + 24_000 - Date.now()));
  const after = await credentials('graceful');
  assert.is(after.secret, current.secret, 'no second rotation yet');
  assert.is(await tokenStatus(after, after.secret), 200, 'the new secret works');
  const refused = await tokenStatus(first, first.secret);
  assert.ok([400, 401].includes(refused), `after the grace the old secret is refused (${refused})`);
  await env.request('DELETE', `/apis/realmforge.dev/v1/namespaces/${team}/identityclients/graceful`);
});

test("the realm's client policies: profiles and policies applied, a hand change reverted, removed ones deleted, the operator's grace policy kept", async () => {
  const realm = (clientPolicies?: Record<string, unknown>) => ({
    apiVersion: 'realmforge.dev/v1',
    kind: 'IdentityRealm',
    metadata: { name: 'apps', namespace: ns },
    spec: {
      serverRef: { name: 'idp' },
      clientAuthorizationGrants: [team],
      ...(clientPolicies ? { clientPolicies } : {}),
    },
  });
  const declared = {
    profiles: [
      {
        name: 'pkce-public',
        description: 'PKCE for public clients',
        executors: [{ executor: 'pkce-enforcer', configuration: { 'auto-configure': true } }],
      },
    ],
    policies: [
      {
        name: 'public-pkce',
        conditions: [{ condition: 'client-access-type', configuration: { type: ['public'] } }],
        profiles: ['pkce-public'],
      },
    ],
  };
  await env.apply(realm(declared) as never);
  const read = async () => ({
    profiles: JSON.parse(
      (await admin('GET', '/apps/client-policies/profiles?include-global-profiles=false')).text,
    ).profiles as { name: string }[],
    policies: JSON.parse((await admin('GET', '/apps/client-policies/policies')).text).policies as {
      name: string;
      enabled?: boolean;
    }[],
  });
  // The two documents are read one after the other while the operator writes them: each wait is for both.
  const applied = (l: typeof live) =>
    l.policies.some((p) => p.name === 'public-pkce') && l.profiles.some((p) => p.name === 'pkce-public');
  let live = await read();
  for (let i = 0; i < 60 && !applied(live); i++) {
    await sleep(500);
    live = await read();
  }
  assert.ok(
    live.profiles.some((p) => p.name === 'pkce-public'),
    JSON.stringify(live),
  );
  assert.ok(
    live.policies.some((p) => p.name === 'public-pkce'),
    JSON.stringify(live),
  );
  // Settled once the realm resynced after the policies appeared; then two more resyncs of it write nothing.
  await resyncs(env, operator, 'IdentityRealm', 1);
  const writesBefore = await writes();
  await resyncs(env, operator, 'IdentityRealm', 2);
  assert.is(await writes(), writesBefore, `a steady resync writes nothing: ${JSON.stringify(await read())}`);
  const edited = live.policies.map((p) => (p.name === 'public-pkce' ? { ...p, enabled: false } : p));
  const put = await admin('PUT', '/apps/client-policies/policies', { policies: edited });
  assert.ok([200, 204].includes(put.status), put.text);
  for (
    let i = 0;
    (i < 60 && live.policies.find((p) => p.name === 'public-pkce')?.enabled === false) || i === 0;
    i++
  ) {
    await sleep(500);
    live = await read();
  }
  assert.is(
    live.policies.find((p) => p.name === 'public-pkce')?.enabled,
    true,
    'the hand change is reverted',
  );
  await env.apply(realm() as never);
  const removed = (l: typeof live) =>
    !l.policies.some((p) => p.name === 'public-pkce') && !l.profiles.some((p) => p.name === 'pkce-public');
  for (let i = 0; i < 60 && !removed(live); i++) {
    await sleep(500);
    live = await read();
  }
  assert.not.ok(
    live.policies.some((p) => p.name === 'public-pkce'),
    'the policy removed from the spec is deleted',
  );
  assert.not.ok(
    live.profiles.some((p) => p.name === 'pkce-public'),
    'and its profile',
  );
  assert.ok(
    live.policies.some((p) => p.name === 'realmforge-secret-rotation-20s'),
    "the operator's grace policy is kept",
  );
});

test('a manual rotation by annotation, once per value; then a steady resync writes nothing', async () => {
  await env.apply(client('manual', { secretRotation: { period: '24h' } }) as never);
  assert.match(await kubectlWait(env, 'identityclient/manual', team, 120), /condition met/);
  const before = await credentials('manual');
  await env.apply(
    client('manual', { secretRotation: { period: '24h' } }, { 'realmforge.dev/rotate-secret': '1' }) as never,
  );
  let after = before;
  for (let i = 0; i < 60 && after.secret === before.secret; i++) {
    await sleep(500);
    after = await credentials('manual');
  }
  assert.is.not(after.secret, before.secret, 'the annotation rotated the secret');
  assert.is(await tokenStatus(after, after.secret), 200);
  // Settled after one resync of each client, then two that write nothing.
  await resyncs(env, operator, 'IdentityClient', 1);
  const writesBefore = await writes();
  await resyncs(env, operator, 'IdentityClient', 2);
  assert.is(await writes(), writesBefore, 'no POST, PUT or DELETE in steady state');
  assert.is((await credentials('manual')).secret, after.secret, 'the same annotation value rotates once');
});

test('a SAML client: Keycloak serves its metadata with the entity ID and certificate; the Secret has the IdP metadata URL', async () => {
  const { stdout: pem } = await promisify(execFile)('openssl', [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-subj',
    '/CN=sp.example.test',
    '-days',
    '1',
    '-keyout',
    '/dev/null',
    '-out',
    '-',
  ]);
  await env.apply({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'sp-cert', namespace: team },
    stringData: { 'tls.crt': pem },
  } as never);
  const entityId = 'https://sp.example.test/metadata';
  await env.apply({
    apiVersion: 'realmforge.dev/v1',
    kind: 'IdentityClient',
    metadata: { name: 'sp', namespace: team },
    spec: {
      realmRef: { name: 'apps', namespace: ns },
      clientId: entityId,
      protocol: 'saml',
      redirectUris: ['https://sp.example.test/*'],
      saml: {
        assertionConsumerServiceUrl: 'https://sp.example.test/acs',
        nameIdFormat: 'email',
        signingCertificateSecretRef: { name: 'sp-cert', key: 'tls.crt' },
      },
      protocolMappers: [{ name: 'roles', protocol: 'saml', protocolMapper: 'saml-role-list-mapper' }],
    },
  } as never);
  assert.match(await kubectlWait(env, 'identityclient/sp', team, 120), /condition met/);
  const secret = await env.core.readNamespacedSecret({ namespace: team, name: 'sp-credentials' });
  const value = (k: string) => Buffer.from(secret.data?.[k] ?? '', 'base64').toString('utf8');
  assert.is(value('entity-id'), entityId);
  assert.is(value('client-secret'), '', 'no client secret for a SAML client');
  const idp = await fetch(loadEndpointMap(env.state.endpointMapFile).resolve(value('idp-metadata-url')));
  assert.is(idp.status, 200, 'the IdP metadata URL in the Secret is served');
  const idpXml = await idp.text();
  const realmCert = value('idp-signing-certificate').replace(/-----[A-Z ]+-----|\s/g, '');
  assert.ok(
    realmCert && idpXml.includes(realmCert),
    "the Secret's signing certificate is the one Keycloak publishes",
  );
  const uuid = JSON.parse(
    (await admin('GET', `/apps/clients?clientId=${encodeURIComponent(entityId)}`)).text,
  )[0].id;
  const sp = await admin('GET', `/apps/clients/${uuid}/installation/providers/saml-sp-descriptor`);
  assert.is(sp.status, 200);
  assert.ok(sp.text.includes(`entityID="${entityId}"`), 'the SP metadata has the configured entity ID');
  const body = pem.replace(/-----[A-Z ]+-----|\s/g, '');
  assert.ok(sp.text.includes(body), 'the SP metadata has the certificate from the Secret');
  assert.ok(sp.text.includes('https://sp.example.test/acs'), 'and the assertion consumer service URL');
});

/** A user made by hand in the realm, with a password and the realm roles given. */
async function user(username: string, roles: string[]) {
  const made = await admin('POST', '/apps/users', {
    username,
    enabled: true,
    email: `${username}@example.test`,
    emailVerified: true,
    firstName: username,
    lastName: 'Test',
    credentials: [{ type: 'password', value: 'pw-Secret-1', temporary: false }],
  });
  assert.ok([201, 409].includes(made.status), `user ${username}: ${made.status} ${made.text}`);
  const id = JSON.parse((await admin('GET', `/apps/users?username=${username}&exact=true`)).text)[0].id;
  for (const name of roles) {
    const role = JSON.parse((await admin('GET', `/apps/roles/${name}`)).text);
    await admin('POST', `/apps/users/${id}/role-mappings/realm`, [role]);
  }
}

/** Keycloak's decision for `user` asking `permission` (resource#scope) of `audience`: an UMA ticket request. */
async function umaDecision(
  c: { clientId: string; secret: string; tokenUrl: string },
  username: string,
  permission: string,
) {
  const login = await fetch(c.tokenUrl, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'password',
      client_id: c.clientId,
      client_secret: c.secret,
      username,
      password: 'pw-Secret-1',
    }),
  });
  const token = ((await login.json()) as { access_token?: string }).access_token;
  assert.ok(token, `${username} logs in (${login.status})`);
  const res = await fetch(c.tokenUrl, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: new URLSearchParams({
      grant_type: 'urn:ietf:params:oauth:grant-type:uma-ticket',
      audience: c.clientId,
      permission,
      response_mode: 'decision',
    }),
  });
  return { status: res.status, body: await res.text() };
}

test('authorization services: a role policy grants the scoped permission to a user with the role, denies one without; a policy changed by hand is reverted; removed from the spec, it is deleted', async () => {
  const roleMade = await admin('POST', '/apps/roles', { name: 'orders-reader' });
  assert.ok([201, 409].includes(roleMade.status), roleMade.text);
  await user('alice', ['orders-reader']);
  await user('bob', []);
  const authorization = (extra: Record<string, unknown>[] = []) => ({
    policyEnforcementMode: 'ENFORCING',
    scopes: [{ name: 'read' }, { name: 'write' }],
    resources: [{ name: 'orders', type: 'urn:orders', uris: ['/orders/*'], scopes: ['read', 'write'] }],
    policies: [
      { name: 'readers', type: 'role', roles: [{ role: 'orders-reader' }] },
      { name: 'office-hours', type: 'time', time: { hour: 0, hourEnd: 23 } },
      {
        name: 'readers-any-time',
        type: 'aggregate',
        policies: ['readers', 'office-hours'],
        decisionStrategy: 'AFFIRMATIVE',
      },
      ...extra,
    ],
    permissions: [
      { name: 'read-orders', type: 'scope', resources: ['orders'], scopes: ['read'], policies: ['readers'] },
      { name: 'write-orders', type: 'resource', resources: ['orders'], policies: ['readers-any-time'] },
    ],
  });
  const spec = (extra?: Record<string, unknown>[]) => ({
    directAccessGrants: true,
    authorization: authorization(extra),
  });
  await env.apply(client('orders', spec([{ name: 'only-bob', type: 'user', users: ['bob'] }])) as never);
  const ready = await waitStatus(
    env,
    'identityclients',
    team,
    'orders',
    180_000,
    (s) => s.phase === 'Ready' || s.phase === 'Failed',
    'to settle',
  );
  assert.is(ready.status.phase, 'Ready', JSON.stringify(ready.status));
  assert.equal(ready.status.authorization, { resources: 1, scopes: 2, policies: 4, permissions: 2 });
  const uuid = ready.status.clientUuid as string;
  const rs = `/apps/clients/${uuid}/authz/resource-server`;
  const exported = JSON.parse((await admin('GET', `${rs}/settings`)).text);
  const policyNames = (exported.policies as { name: string }[]).map((p) => p.name).sort();
  assert.equal(
    policyNames,
    ['office-hours', 'only-bob', 'read-orders', 'readers', 'readers-any-time', 'write-orders'],
    `Keycloak's default policy and permission are removed: ${JSON.stringify(exported.policies)}`,
  );
  assert.equal(
    (exported.resources as { name: string }[]).map((r) => r.name),
    ['orders'],
    "Keycloak's Default Resource is removed",
  );
  const c = await credentials('orders');
  const granted = await umaDecision(c, 'alice', 'orders#read');
  assert.is(granted.status, 200, granted.body);
  assert.match(granted.body, /"result":\s*true/);
  const denied = await umaDecision(c, 'bob', 'orders#read');
  assert.is(denied.status, 403, `bob has no orders-reader role: ${denied.body}`);
  // Steady state: nothing written over two resyncs of each client, after one to settle.
  await resyncs(env, operator, 'IdentityClient', 1);
  const writesBefore = await writes();
  await resyncs(env, operator, 'IdentityClient', 2);
  assert.is(await writes(), writesBefore, 'a steady resync writes nothing');
  // By hand: the role policy inverted (NEGATIVE); the operator reverts it within a drift interval.
  const listed = JSON.parse((await admin('GET', `${rs}/policy?name=readers`)).text) as {
    id: string;
    name: string;
  }[];
  const id = listed.find((p) => p.name === 'readers')?.id;
  const typed = JSON.parse((await admin('GET', `${rs}/policy/role/${id}`)).text);
  const changed = await admin('PUT', `${rs}/policy/role/${id}`, { ...typed, logic: 'NEGATIVE' });
  assert.ok([200, 201, 204].includes(changed.status), changed.text);
  let logic = 'NEGATIVE';
  for (let i = 0; i < 60 && logic !== 'POSITIVE'; i++) {
    await sleep(500);
    logic = JSON.parse((await admin('GET', `${rs}/policy/role/${id}`)).text).logic;
  }
  assert.is(logic, 'POSITIVE', 'the hand-made change is reverted');
  assert.is((await umaDecision(c, 'alice', 'orders#read')).status, 200);
  // Removed from the spec: deleted in Keycloak.
  await env.apply(client('orders', spec()) as never);
  let names: string[] = ['only-bob'];
  for (let i = 0; i < 60 && names.includes('only-bob'); i++) {
    await sleep(500);
    names = (JSON.parse((await admin('GET', `${rs}/policy?first=0&max=100`)).text) as { name: string }[]).map(
      (p) => p.name,
    );
  }
  assert.not.ok(names.includes('only-bob'), 'the policy removed from the spec is deleted');
  assert.ok(names.includes('readers'), 'the others stay');
});

test('authorization: a JavaScript policy is refused at admission', async () => {
  const refused = await env
    .apply(client('js-policy', { authorization: { policies: [{ name: 'js', type: 'js' }] } }) as never)
    .then(
      () => 'accepted',
      (e: Error) => String(e.message ?? e),
    );
  assert.match(refused, /Unsupported value: "js"/);
});

test.run();
