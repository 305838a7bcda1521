// Change detection against the real Keycloak: with a full read only once an hour, a steady resync of a realm with
// the production example, plus an identity provider and an organization, and a client reads only the realm's newest
// admin event (the texts, for which Keycloak records no event, wait for the full read: change-signal.test.ts); a
// hand edit through the admin API to each section Keycloak reports, all made at once, is reverted by the next
// resync that reads the cursor.
import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse as parseYaml } from 'yaml';
import { callCounts, callsBetween } from '../../scripts/bench/call-breakdown.ts';
import { eventually, type TestEnv } from '../../scripts/testenv/harness.ts';
import { getResource, kubectlWait } from '../../scripts/testenv/identity-fixtures.ts';
import type { OperatorProcess } from '../../scripts/testenv/operator-process.ts';
import { type KeycloakAdmin, keycloakAdmin } from './helpers/keycloak-admin.ts';
import { type OperatorSuite, operatorSuite } from './helpers/operator-suite.ts';
import { resyncs } from './helpers/resyncs.ts';

const intervalMs = 8_000;
let suite: OperatorSuite;
let env: TestEnv;
let operator: OperatorProcess;
let ns: string;
let kc: KeycloakAdmin;
const r = '/cd';

const example = parseYaml(readFileSync('examples/identityrealm-production.yaml', 'utf8'));
const realmSpec = () => ({
  ...example.spec,
  serverRef: { name: 'idp' },
  realmName: 'cd',
  clientAuthorizationGrants: [ns],
  deletionPolicy: 'Delete',
  identityProviders: [
    {
      alias: 'corp',
      providerId: 'oidc',
      displayName: 'Corp',
      config: {
        clientId: 'cd',
        authorizationUrl: 'https://corp.example.test/auth',
        tokenUrl: 'https://corp.example.test/token',
      },
      clientSecretRef: { name: 'corp-idp', key: 'secret' },
    },
  ],
  organizations: [{ name: 'acme', description: 'Acme', domains: [{ name: 'acme.example.test' }] }],
});
const redirectUris = ['https://web.example.test/callback'];

const cursorPath = '/admin/realms/{realm}/admin-events?first&max';
/** The realm's and client's Keycloak calls since `before` (a /metrics text), as "kind method path" -> count. */
const callsSince = async (before: string) =>
  [...callsBetween(callCounts(before), callCounts(await operator.metrics()))].filter(([key]) =>
    /^Identity(Realm|Client) /.test(key),
  );
const count = (calls: [string, number][], match: (method: string, path: string) => boolean) =>
  calls.reduce((sum, [key, n]) => {
    const [, method = '', path = ''] = key.split(' ');
    return sum + (match(method, path) ? n : 0);
  }, 0);
const reads = (calls: [string, number][]) => count(calls, (method) => method === 'GET');
const cursorReads = (calls: [string, number][]) =>
  count(calls, (method, path) => method === 'GET' && path === cursorPath);
const writes = (calls: [string, number][]) =>
  count(calls, (method, path) => method !== 'GET' && !path.endsWith('/token'));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const first = async (path: string) => (await kc('GET', path))?.[0];
/** A timer's lateness on a loaded machine. */
const startSlackMs = 3_000;
/** The successful passes of one resource the operator logged: when each began and what it wrote. */
const passesOf = (kind: string, name: string) =>
  operator
    .logs()
    .filter((l) => l.msg === 'reconciled' && l.kind === kind && l.name === name && l.result === 'success')
    .map((l) => ({
      start: Date.parse(l.time) - l.durationMs,
      ms: l.durationMs,
      writes: (l.writes ?? []) as string[],
    }));

test.before(async () => {
  suite = await operatorSuite('change-det', {
    server: {},
    beforeStart: async () => ({
      // debug: the passes that found nothing changed are logged too, with when they ran.
      args: [`--drift-interval=${intervalMs / 1000}s`, '--full-resync-period=1h', '--log-level=debug'],
    }),
  });
  ({ env, ns, operator } = suite);
  kc = keycloakAdmin(env, ns);
  const secret = (name: string, key: string) => ({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name, namespace: ns },
    stringData: { [key]: 'not-used' },
  });
  await env.apply(secret('smtp-relay', 'password') as never);
  await env.apply(secret('corp-idp', 'secret') as never);
  const meta = (kind: string, name: string) => ({
    apiVersion: 'realmforge.dev/v1',
    kind,
    metadata: { name, namespace: ns },
  });
  await env.apply({ ...meta('IdentityRealm', 'cd'), spec: realmSpec() } as never);
  await env.apply({
    ...meta('IdentityClient', 'web'),
    spec: { realmRef: { name: 'cd' }, clientId: 'web', redirectUris },
  } as never);
  await kubectlWait(env, 'identityrealm/cd', ns, 180);
  await kubectlWait(env, 'identityclient/web', ns, 120);
});
test.after(() => suite?.close());

test('admin events are on and kept bounded; a steady resync reads only the newest admin event', async () => {
  const realm = await kc('GET', r);
  assert.is(realm.adminEventsEnabled, true, 'the production example turns them on itself');
  // The passes after creation wrote (the example's identity provider and organization are not carried by the
  // create call) and read once more; then it settles.
  await eventually('a pass that reads only the cursor', 6 * intervalMs, async () => {
    const before = await operator.metrics();
    await sleep(intervalMs);
    const calls = await callsSince(before);
    return cursorReads(calls) > 0 && reads(calls) === cursorReads(calls) ? true : undefined;
  });
  const before = await operator.metrics();
  await sleep(3 * intervalMs);
  const calls = await callsSince(before);
  const shown = JSON.stringify(calls);
  console.log(`change detection: 3 steady intervals of the realm and its client: ${shown}`);
  assert.ok(cursorReads(calls) >= 2, `the realm and its client resynced: ${shown}`);
  assert.is(reads(calls), cursorReads(calls), `every read was a cursor read: ${shown}`);
  assert.ok(cursorReads(calls) <= 5, `about one cursor read per interval for the two: ${shown}`);
  assert.is(writes(calls), 0, `no write: ${shown}`);
  // The example requires HTTPS, which the realm's identity cannot get tokens over here (plain HTTP): its calls go
  // to the master identity without asking the realm for a token each time (realm-routing.ts).
  const tokens = count(calls, (method, path) => method === 'POST' && path.endsWith('/token'));
  assert.ok(tokens <= 1, `no token request per pass: ${shown}`);
});

test("another client's creation (the operator's own admin events) does not make the realm read everything", async () => {
  const before = await operator.metrics();
  await env.apply({
    apiVersion: 'realmforge.dev/v1',
    kind: 'IdentityClient',
    metadata: { name: 'api', namespace: ns },
    spec: { realmRef: { name: 'cd' }, clientId: 'api', redirectUris },
  } as never);
  await kubectlWait(env, 'identityclient/api', ns, 60);
  await resyncs(env, operator, 'IdentityRealm', 2);
  const calls = await callsSince(before);
  const realmCalls = calls.filter(([key]) => key.startsWith('IdentityRealm '));
  const shown = JSON.stringify(calls);
  assert.ok(
    count(calls, (method, path) => method === 'POST' && path === '/admin/realms/{realm}/clients') === 1,
    `the client was created: ${shown}`,
  );
  assert.ok(cursorReads(realmCalls) >= 2, `the realm resynced after it: ${shown}`);
  assert.is(reads(realmCalls), cursorReads(realmCalls), `the realm read only its admin events: ${shown}`);
});

test('a hand edit to each managed section, all at once, is reverted by the next resync', async () => {
  const realm = await kc('GET', r);
  const employee = await kc('GET', `${r}/roles/employee`);
  // The whole group: a search answers brief ones, and a PUT without the attributes would drop the operator's mark.
  const staff = await kc('GET', `${r}/groups/${(await first(`${r}/groups?search=staff&exact=true`)).id}`);
  const scope = (
    (await kc('GET', `${r}/client-scopes`)) as { id: string; name: string; description?: string }[]
  ).find((s) => s.name === 'payroll.read');
  const executions = await kc('GET', `${r}/authentication/flows/browser-payroll-otp/executions`);
  const cookie = executions.find((e: { providerId?: string }) => e.providerId === 'auth-cookie');
  const terms = await kc('GET', `${r}/authentication/required-actions/TERMS_AND_CONDITIONS`);
  const profile = await kc('GET', `${r}/users/profile`);
  const idp = await kc('GET', `${r}/identity-provider/instances/corp`);
  const org = await first(`${r}/organizations?search=acme`);
  const web = await first(`${r}/clients?clientId=web`);
  const edits: [string, () => Promise<unknown>][] = [
    ['realm fields', () => kc('PUT', r, { ...realm, displayName: 'by hand' })],
    ['roles', () => kc('PUT', `${r}/roles/employee`, { ...employee, description: 'by hand' })],
    [
      'groups',
      () =>
        kc('PUT', `${r}/groups/${staff.id}`, {
          ...staff,
          attributes: { ...staff.attributes, directory: ['x'] },
        }),
    ],
    [
      'client scopes',
      () => kc('PUT', `${r}/client-scopes/${scope?.id}`, { ...scope, description: 'by hand' }),
    ],
    [
      'flows',
      () =>
        kc('PUT', `${r}/authentication/flows/browser-payroll-otp/executions`, {
          ...cookie,
          requirement: 'DISABLED',
        }),
    ],
    [
      'required actions',
      () =>
        kc('PUT', `${r}/authentication/required-actions/TERMS_AND_CONDITIONS`, {
          ...terms,
          defaultAction: false,
        }),
    ],
    [
      'user profile',
      () =>
        kc('PUT', `${r}/users/profile`, {
          ...profile,
          attributes: profile.attributes.filter((a: { name: string }) => a.name !== 'staffNumber'),
        }),
    ],
    ['default roles', () => kc('DELETE', `${r}/roles-by-id/${realm.defaultRole.id}/composites`, [employee])],
    [
      'identity providers',
      () => kc('PUT', `${r}/identity-provider/instances/corp`, { ...idp, displayName: 'x' }),
    ],
    ['organizations', () => kc('PUT', `${r}/organizations/${org.id}`, { ...org, description: 'by hand' })],
    [
      'a client',
      () => kc('PUT', `${r}/clients/${web.id}`, { ...web, redirectUris: ['https://evil.test/*'] }),
    ],
  ];
  const reverted: Record<string, () => Promise<boolean>> = {
    'realm fields': async () => (await kc('GET', r)).displayName === example.spec.displayName,
    roles: async () => (await kc('GET', `${r}/roles/employee`)).description === employee.description,
    groups: async () => (await kc('GET', `${r}/groups/${staff.id}`)).attributes?.directory?.[0] === 'corp',
    'client scopes': async () =>
      (await kc('GET', `${r}/client-scopes/${scope?.id}`)).description === scope?.description,
    flows: async () =>
      (await kc('GET', `${r}/authentication/flows/browser-payroll-otp/executions`)).find(
        (e: { providerId?: string }) => e.providerId === 'auth-cookie',
      )?.requirement === 'ALTERNATIVE',
    'required actions': async () =>
      (await kc('GET', `${r}/authentication/required-actions/TERMS_AND_CONDITIONS`)).defaultAction === true,
    'user profile': async () =>
      (await kc('GET', `${r}/users/profile`)).attributes.some(
        (a: { name: string }) => a.name === 'staffNumber',
      ),
    'default roles': async () =>
      ((await kc('GET', `${r}/roles-by-id/${realm.defaultRole.id}/composites`)) as { name: string }[]).some(
        (c) => c.name === 'employee',
      ),
    'identity providers': async () =>
      (await kc('GET', `${r}/identity-provider/instances/corp`)).displayName === 'Corp',
    organizations: async () => (await kc('GET', `${r}/organizations/${org.id}`)).description === 'Acme',
    'a client': async () =>
      JSON.stringify((await kc('GET', `${r}/clients/${web.id}`)).redirectUris) ===
      JSON.stringify(redirectUris),
  };
  const before = await operator.metrics();
  // The edits land just after a realm resync ended (the next is at least 0.8 interval away): a pass under way could
  // read a section before its edit landed and leave it to the pass after.
  const ended = passesOf('IdentityRealm', 'cd').length;
  await eventually('a realm resync', 2 * intervalMs, async () =>
    passesOf('IdentityRealm', 'cd').length > ended ? true : undefined,
  );
  await Promise.all(edits.map(([, edit]) => edit()));
  const edited = Date.now();
  let left: string[] = [];
  await eventually('every section reverted', 5 * intervalMs, async () => {
    const done = await Promise.all(edits.map(([section]) => reverted[section]?.()));
    left = edits.filter((_, i) => !done[i]).map(([section]) => section);
    return left.length ? undefined : true;
  }).catch(async () => {
    const status = async (plural: string, name: string) =>
      JSON.stringify((await getResource(env, plural, ns, name))?.status);
    const shown = `${await status('identityrealms', 'cd')} ${await status('identityclients', 'web')}`;
    assert.equal(
      left,
      [],
      `sections not reverted; status: ${shown}; calls ${JSON.stringify(await callsSince(before))}`,
    );
  });
  const calls = await callsSince(before);
  assert.ok(writes(calls) >= edits.length, `at least one write per section: ${JSON.stringify(calls)}`);
  assert.ok(cursorReads(calls) > 0, 'found through the cursor (a full read is an hour away)');
  // Every revert was written by a pass that began within one interval of the edits: the realm's next resync reads
  // the cursor and wakes the client, whose own pass meanwhile may still use the realm's earlier read. From the
  // operator's log, so neither this test's polling nor the writes' duration on a loaded machine counts.
  for (const [kind, name] of [
    ['IdentityRealm', 'cd'],
    ['IdentityClient', 'web'],
  ]) {
    const after = passesOf(kind, name).filter((p) => p.start >= edited);
    const shown = JSON.stringify(after.map((p) => ({ ...p, start: p.start - edited })));
    console.log(`change detection: ${kind} passes after the edits (start in ms from them): ${shown}`);
    const late = after.filter((p) => p.writes.length && p.start - edited > intervalMs + startSlackMs);
    assert.equal(
      late,
      [],
      `${kind} ${name}: a revert by a pass that began over an interval after the edits: ${shown}`,
    );
  }
});

test.run();
