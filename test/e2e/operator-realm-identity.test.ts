// The operator's identity per realm on Keycloak 26: a realm identity's token is refused for any other realm, every
// section the operator writes is within its roles (organizations included), a disabled realm is managed with the
// master identity; then the tests every supported line shares (helpers/realm-identity-tests.ts: the master identity
// refused on a realm it did not create, a realm identity restored, adoption after the named grant, an earlier
// release's server reduced, the bootstrap admin not needed); last, with the operator's own client in place, the
// bootstrap admin made useless (its password changed in Keycloak behind the Secret's back, its Secret deleted): the
// server stays Ready and a new realm and client still reach Ready.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { TestEnv } from '../../scripts/testenv/harness.ts';
import { waitStatus } from '../../scripts/testenv/identity-fixtures.ts';
import { openRecord } from '../../src/operator/keycloak/collections/record.ts';
import { realmIdentitySecret } from '../../src/operator/keycloak/realm-identity.ts';
import { type KeycloakAdmin, keycloakAdminApi } from './helpers/keycloak-admin.ts';
import { type OperatorSuite, operatorSuite } from './helpers/operator-suite.ts';
import { identityTools, realmIdentityTests } from './helpers/realm-identity-tests.ts';

let suite: OperatorSuite;
let env: TestEnv;
let ns: string;
let kc: KeycloakAdmin;
/** The bootstrap admin's account, read before the shared tests delete its Secret. */
let bootstrap: { username: string; password: string };
const text = (data: Record<string, string> | undefined, key: string) =>
  Buffer.from(data?.[key] ?? '', 'base64').toString('utf8');
const tools = identityTools(() => ({ suite }));
const { realm, clientToken, asToken } = tools;
const realmKey = async () => ({ key: (await tools.operatorSecret()).key });

test.before(async () => {
  suite = await operatorSuite('op-realm-id', { server: {} });
  ({ env, ns } = suite);
  kc = tools.admin();
  await kc('GET', '/master'); // the bootstrap admin is read before the shared tests delete its Secret
  const secret = await env.core.readNamespacedSecret({ namespace: ns, name: 'idp-admin-credentials' });
  bootstrap = { username: text(secret.data, 'username'), password: text(secret.data, 'password') };
  await realm('alpha');
  await realm('beta');
});
test.after(() => suite?.close());

test("a realm identity's token is refused for any other realm: Keycloak enforces the boundary", async () => {
  for (const name of ['alpha', 'beta'])
    await waitStatus(env, 'identityrealms', ns, name, 180_000, (s) => s.phase === 'Ready', 'Ready');
  const { key } = await realmKey();
  const beta = await clientToken('beta', 'realmforge-operator', realmIdentitySecret(key, 'beta'));
  assert.is(beta.status, 200);
  assert.is(await asToken(beta.token, '/beta/clients?clientId=realmforge-operator'), 200);
  assert.is(await asToken(beta.token, '/alpha'), 403, "beta's token reads nothing of alpha");
  assert.is(await asToken(beta.token, '/alpha/clients'), 403);
  // Each realm's secret is its own: beta's secret is no key to alpha.
  const crossed = await clientToken('alpha', 'realmforge-operator', realmIdentitySecret(key, 'beta'));
  assert.is(crossed.status, 401);
});

test("every section the operator writes is within the realm identity's roles (organizations, groups, roles, events)", async () => {
  await realm('sections', {
    organizations: [{ name: 'acme', domains: [{ name: 'acme.test' }] }],
    roles: [{ name: 'reader' }],
    groups: [{ name: 'staff', realmRoles: ['reader'] }],
    events: { eventsEnabled: true, adminEventsEnabled: true },
  });
  // Ready, or the first failure (a 403 for a missing role is KeycloakAuthFailed) with its message.
  const ready = await waitStatus(
    env,
    'identityrealms',
    ns,
    'sections',
    180_000,
    (s) => ['Ready', 'Failed'].includes(s.phase) || s.reason === 'KeycloakAuthFailed',
    'settled',
  );
  assert.is(ready.status.phase, 'Ready', JSON.stringify(ready.status));
  const [org] = await kc('GET', '/sections/organizations?search=acme');
  assert.is(org?.name, 'acme');
  assert.is((await kc('GET', '/sections')).eventsEnabled, true);
});

test('a disabled realm, which issues no tokens, is managed with the master identity', async () => {
  await realm('off', { enabled: false, displayName: 'Switched off' });
  await waitStatus(env, 'identityrealms', ns, 'off', 120_000, (s) => s.phase === 'Ready', 'Ready');
  assert.is((await kc('GET', '/off')).displayName, 'Switched off');
  await kc('PUT', '/off', { displayName: 'Edited by hand' });
  await waitStatus(env, 'identityrealms', ns, 'off', 60_000, (s) => s.phase === 'Ready', 'Ready');
  for (let i = 0; i < 30 && (await kc('GET', '/off')).displayName !== 'Switched off'; i++)
    await new Promise((r) => setTimeout(r, 1000));
  assert.is((await kc('GET', '/off')).displayName, 'Switched off', 'the hand edit was reverted');
});

realmIdentityTests(() => ({ suite }));

test('with its own client in place, the bootstrap admin can go: a new realm and client reach Ready', async () => {
  const kept = await env.core.readNamespacedSecret({ namespace: ns, name: 'idp-operator-client' });
  assert.is(text(kept.data, 'client-id'), 'realmforge-operator');
  // The bootstrap admin becomes useless: its password changes in Keycloak, and its Secret is deleted (if the
  // test before has not).
  const [user] = await kc(
    'GET',
    `/master/users?username=${encodeURIComponent(bootstrap.username)}&exact=true`,
  );
  await kc('PUT', `/master/users/${user.id}/reset-password`, {
    type: 'password',
    value: 'changed-behind-the-operator',
    temporary: false,
  });
  await env.core
    .deleteNamespacedSecret({ namespace: ns, name: 'idp-admin-credentials' })
    .catch((e) => assert.is(e.code, 404, String(e)));
  await realm('later', { displayName: 'Made after the bootstrap admin left' });
  await env.apply({
    apiVersion: 'realmforge.dev/v1',
    kind: 'IdentityClient',
    metadata: { name: 'web', namespace: ns },
    spec: { realmRef: { name: 'later' }, redirectUris: ['https://web.example.test/cb'] },
  } as never);
  await waitStatus(env, 'identityrealms', ns, 'later', 180_000, (s) => s.phase === 'Ready', 'Ready');
  await waitStatus(env, 'identityclients', ns, 'web', 180_000, (s) => s.phase === 'Ready', 'Ready');
  const server = await waitStatus(
    env,
    'identityservers',
    ns,
    'idp',
    60_000,
    (s) => s.phase === 'Ready',
    'Ready',
  );
  assert.is(server.status.reason, 'Ready');
  // Checked with the new password: the realm is there, made by the operator's client.
  const asChanged = keycloakAdminApi(kc.url, async () => ({
    ...bootstrap,
    password: 'changed-behind-the-operator',
  }));
  const live = await asChanged('GET', '/later');
  assert.is(live.displayName, 'Made after the bootstrap admin left');
  assert.is(openRecord(live).attributes?.['realmforge.dev/owner'], `${ns}/later`);
  assert.is((await asChanged('GET', '/later/clients?clientId=web'))[0]?.clientId, 'web');
});

test.run();
