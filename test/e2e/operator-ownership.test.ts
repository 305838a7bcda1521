// Ownership and boundaries against the real API server and Keycloak, operator under its own ServiceAccount: a
// server written with 1000m/1024Mi sends no writes in steady state; a namespace the server does not grant creates
// nothing; of two IdentityRealms naming one realm exactly one owns it and deleting the other leaves the realm and
// its users; a hand-made realm is adopted only when asked; realm-management roles need the realm's allowance; a
// client deleted while its Keycloak restarts is gone from Keycloak once Keycloak is back; the SMTP password's
// recorded hash cannot be checked without the server's hash key.

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { eventually, type TestEnv } from '../../scripts/testenv/harness.ts';
import { getResource, identityServer, waitStatus } from '../../scripts/testenv/identity-fixtures.ts';
import { e2eDriftMs, type OperatorProcess } from '../../scripts/testenv/operator-process.ts';
import { openRecord } from '../../src/operator/keycloak/collections/record.ts';
import { giveNamedGrant, type KeycloakAdmin, keycloakAdmin } from './helpers/keycloak-admin.ts';
import { type OperatorSuite, operatorSuite } from './helpers/operator-suite.ts';
import { resyncs } from './helpers/resyncs.ts';
import { checkSecretHashes } from './helpers/secret-hashes.ts';
import { smtpListener } from './helpers/smtp-listener.ts';

let suite: OperatorSuite;
let env: TestEnv;
let operator: OperatorProcess;
let ns: string; // the server, granted
let teamA: string; // granted
let teamB: string; // granted
let stranger: string; // not granted
let kc: KeycloakAdmin;

const realm = (namespace: string, name: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'realmforge.dev/v1',
  kind: 'IdentityRealm',
  metadata: { name, namespace },
  spec: { serverRef: { name: 'idp', namespace: ns }, ...spec },
});
const client = (namespace: string, name: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'realmforge.dev/v1',
  kind: 'IdentityClient',
  metadata: { name, namespace },
  spec: { realmRef: { name: 'apps', namespace: ns }, ...spec },
});

const admin = (method: string, path: string, body?: unknown) => kc.call(method, path, body);
const deleteResource = (plural: string, namespace: string, name: string) =>
  env.request('DELETE', `/apis/realmforge.dev/v1/namespaces/${namespace}/${plural}/${name}`);
const gone = (plural: string, namespace: string, name: string, ms: number) =>
  eventually(`${plural} ${namespace}/${name} to be gone`, ms, async () =>
    (await getResource(env, plural, namespace, name)) ? undefined : true,
  );

test.before(async () => {
  suite = await operatorSuite('own');
  ({ env, ns, operator } = suite);
  teamA = await suite.namespace('own-a');
  teamB = await suite.namespace('own-b');
  stranger = await suite.namespace('own-x');
  const resources = { requests: { cpu: '1000m', memory: '1024Mi' }, limits: { memory: '2048Mi' } };
  await env.apply(
    identityServer(ns, 'idp', 'pg', { resources, realmAuthorizationGrants: [ns, teamA, teamB] }) as never,
  );
  await waitStatus(env, 'identityservers', ns, 'idp', 600_000, (s) => s.phase === 'Ready', 'to be Ready');
  kc = keycloakAdmin(env, ns);
});
test.after(() => suite?.close());

test('a server written with cpu 1000m and memory 1024Mi sends zero writes over three drift intervals', async () => {
  await resyncs(env, operator, 'IdentityServer', 1); // the Ready transition settled
  const applies = () => operator.counter('realmforge_kube_requests_total', { verb: 'apply' });
  const [before, from] = [await applies(), operator.logs().length];
  await resyncs(env, operator, 'IdentityServer', 3);
  const serverWrites = operator
    .logs()
    .slice(from)
    .filter((l) => l.kind === 'IdentityServer' && (l.applied?.length || l.statusWritten));
  assert.equal(
    serverWrites,
    [],
    `no apply: 1000m and 1024Mi are compared as the API server stores them (applies of any kind in the window: ${(await applies()) - before})`,
  );
  const d = await env.apps.readNamespacedDeployment({ namespace: ns, name: 'idp' });
  assert.equal(d.spec?.template.spec?.containers[0]?.resources?.requests, { cpu: '1', memory: '1Gi' });
});

test('a namespace the server does not grant creates nothing: Pending/NamespaceNotAuthorized', async () => {
  await env.apply(realm(stranger, 'outsider') as never);
  const s = await waitStatus(
    env,
    'identityrealms',
    stranger,
    'outsider',
    60_000,
    (st) => st.reason === 'NamespaceNotAuthorized',
    'to be refused',
  );
  assert.is(s.status.phase, 'Pending');
  assert.match(s.status.message, 'spec.realmAuthorizationGrants');
  assert.is(await admin('GET', '/outsider'), undefined, 'no realm in Keycloak');
});

test('two namespaces naming one realm: one owns it, the other is RealmNameConflict; deleting it leaves realm and users', async () => {
  await env.apply(realm(teamA, 'shared', { displayName: 'A' }) as never);
  await waitStatus(
    env,
    'identityrealms',
    teamA,
    'shared',
    120_000,
    (s) => s.phase === 'Ready',
    'to be Ready',
  );
  await env.apply(realm(teamB, 'shared', { displayName: 'B' }) as never);
  const loser = await waitStatus(
    env,
    'identityrealms',
    teamB,
    'shared',
    60_000,
    (s) => s.reason === 'RealmNameConflict',
    'to conflict',
  );
  assert.is(loser.status.phase, 'Failed');
  assert.match(loser.status.message, `belongs to IdentityRealm ${teamA}/shared`);
  const live = await admin('GET', '/shared');
  assert.is(live.displayName, 'A', 'the loser wrote nothing');
  assert.is(openRecord(live).attributes['realmforge.dev/owner'], `${teamA}/shared`);
  await admin('POST', '/shared/users', { username: 'alice', enabled: true });
  await deleteResource('identityrealms', teamB, 'shared');
  await gone('identityrealms', teamB, 'shared', 60_000);
  assert.ok(await admin('GET', '/shared'), 'the realm stays');
  assert.is((await admin('GET', '/shared/users?username=alice&exact=true')).length, 1, 'its users stay');
});

test('a realm created by hand is not adopted unless spec.adoptExisting asks for it', async () => {
  await admin('POST', '', { realm: 'legacy', enabled: true, displayName: 'By hand' });
  await env.apply(realm(ns, 'legacy', { displayName: 'Managed' }) as never);
  const refused = await waitStatus(
    env,
    'identityrealms',
    ns,
    'legacy',
    60_000,
    (s) => s.reason === 'RealmNameConflict',
    'to conflict',
  );
  assert.match(refused.status.message, 'not created by realmforge');
  assert.is((await admin('GET', '/legacy')).displayName, 'By hand');
  // Adoption is a grant Keycloak enforces: asked for, it names the grant; given, the realm is managed.
  await env.apply(realm(ns, 'legacy', { displayName: 'Managed', adoptExisting: true }) as never);
  const missing = await waitStatus(
    env,
    'identityrealms',
    ns,
    'legacy',
    60_000,
    (s) => s.reason === 'RealmGrantMissing',
    'to name the grant',
  );
  assert.is((await admin('GET', '/legacy')).displayName, 'By hand', 'nothing written before the grant');
  await giveNamedGrant(admin, 'legacy', missing.status.message);
  await waitStatus(env, 'identityrealms', ns, 'legacy', 60_000, (s) => s.phase === 'Ready', 'to be adopted');
  const adopted = await admin('GET', '/legacy');
  assert.is(adopted.displayName, 'Managed');
  assert.is(openRecord(adopted).attributes['realmforge.dev/owner'], `${ns}/legacy`);
});

test('realm-management roles for a service account are refused unless the realm allows them', async () => {
  const apps = (extra: Record<string, unknown>) =>
    realm(ns, 'apps', { clientAuthorizationGrants: [teamA], ...extra });
  await env.apply(apps({}) as never);
  await waitStatus(env, 'identityrealms', ns, 'apps', 60_000, (s) => s.phase === 'Ready', 'to be Ready');
  const serviceAccount = {
    enabled: true,
    clientRoles: [{ client: 'realm-management', roles: ['view-users'] }],
  };
  await env.apply(client(teamA, 'robot', { serviceAccount }) as never);
  const refused = await waitStatus(
    env,
    'identityclients',
    teamA,
    'robot',
    60_000,
    (s) => s.reason === 'RoleNotAuthorized',
    'to be refused',
  );
  assert.is(refused.status.phase, 'Failed');
  assert.equal(await admin('GET', '/apps/clients?clientId=robot'), [], 'nothing created');
  const allow = { namespaces: [teamA], client: 'realm-management', roles: ['view-users'] };
  await env.apply(apps({ crossClientRoleGrants: [allow] }) as never);
  await waitStatus(env, 'identityclients', teamA, 'robot', 90_000, (s) => s.phase === 'Ready', 'to be Ready');
  const robot = (await admin('GET', '/apps/clients?clientId=robot'))[0];
  const user = await admin('GET', `/apps/clients/${robot.id}/service-account-user`);
  const rm = (await admin('GET', '/apps/clients?clientId=realm-management'))[0];
  const roles = await admin('GET', `/apps/users/${user.id}/role-mappings/clients/${rm.id}`);
  assert.ok(
    roles.some((r: { name: string }) => r.name === 'view-users'),
    'granted with the allowance',
  );
});

test('a rotated SMTP password Secret reaches Keycloak: its test-connection call logs in with the new password', async () => {
  const smtp = await smtpListener();
  try {
    // Keycloak sends the test mail to the admin who asks for it, and refuses an admin without an address.
    const creds = await env.core.readNamespacedSecret({ namespace: ns, name: 'idp-admin-credentials' });
    const username = Buffer.from(creds.data?.username ?? '', 'base64').toString('utf8');
    const [me] = await admin('GET', `/master/users?exact=true&username=${encodeURIComponent(username)}`);
    await admin('PUT', `/master/users/${me.id}`, { ...me, email: 'admin@example.test' });
    const password = (value: string) =>
      env.apply({
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'mailer', namespace: ns },
        stringData: { password: value },
      } as never);
    await password('first-password');
    const mail = {
      host: '127.0.0.1',
      port: smtp.port,
      from: 'identity@example.test',
      user: 'mailer',
      passwordSecretRef: { name: 'mailer', key: 'password' },
    };
    await env.apply(realm(ns, 'mail', { smtp: mail }) as never);
    await waitStatus(env, 'identityrealms', ns, 'mail', 60_000, (s) => s.phase === 'Ready', 'to be Ready');
    // What the admin console's "Test connection" does: send the stored settings back, the password masked;
    // Keycloak then logs in with the password it stores.
    const testConnection = async () => {
      const { smtpServer } = await admin('GET', '/mail');
      assert.is.not(smtpServer.password, 'first-password', 'Keycloak never echoes the password');
      await admin('POST', '/mail/testSMTPConnection', smtpServer);
      return smtp.logins.at(-1);
    };
    assert.equal(await testConnection(), { user: 'mailer', password: 'first-password', mechanism: 'LOGIN' });
    const stored = await admin('GET', '/mail');
    await checkSecretHashes(env, { namespace: ns, name: 'idp' }, stored, {
      password: 'first-password',
      salt: 'mail',
      recorded: openRecord(stored).attributes?.['realmforge.dev/smtp-password-hash'],
    });
    const mails = smtp.messages();
    assert.ok(mails >= 1, 'the test mail was sent');

    await password('second-password');
    const rotated = Date.now();
    await eventually('the rotated password to reach Keycloak', 60_000, async () =>
      (await testConnection())?.password === 'second-password' ? true : undefined,
    );
    const ms = Date.now() - rotated;
    console.log(
      `smtp: the rotated password reached Keycloak after ${ms} ms (drift interval ${e2eDriftMs} ms)`,
    );
    // A key is resynced at a random point of each interval, so two resyncs can be up to two intervals apart.
    assert.ok(ms <= 2 * e2eDriftMs + 5_000, `reached Keycloak after ${ms} ms`);
  } finally {
    await smtp.close();
  }
});

test('a client deleted while its Keycloak restarts is gone from Keycloak once Keycloak is back', async () => {
  await env.apply(client(teamA, 'doomed', { redirectUris: ['https://doomed.example.test/cb'] }) as never);
  await waitStatus(
    env,
    'identityclients',
    teamA,
    'doomed',
    60_000,
    (s) => s.phase === 'Ready',
    'to be Ready',
  );
  const pods = await env.core.listNamespacedPod({
    namespace: ns,
    labelSelector: 'app.kubernetes.io/instance=idp',
  });
  for (const p of pods.items)
    await env.core.deleteNamespacedPod({ namespace: ns, name: p.metadata?.name ?? '' });
  await deleteResource('identityclients', teamA, 'doomed');
  await gone('identityclients', teamA, 'doomed', 280_000);
  const left = await eventually('Keycloak to answer again', 300_000, () =>
    admin('GET', '/apps/clients?clientId=doomed').catch(() => undefined),
  );
  assert.equal(left, [], 'the client was deleted, not leaked');
  const events = await env.core.listNamespacedEvent({ namespace: teamA });
  assert.not.ok(
    events.items.some((e) => e.reason === 'CleanupAbandoned'),
    'cleanup was not abandoned',
  );
});

test.run();
