// The operator's identity per realm on a real Keycloak: its master identity holds create-realm and no admin; each
// realm it creates carries the client realmforge-operator whose token Keycloak accepts for that realm only; a realm
// identity deleted by hand is restored and reported; an adopted realm without a grant is reported and not written,
// then managed once the named grant is given; a realm made by an earlier version (master admin, no realm identity)
// is migrated.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { TestEnv } from '../../scripts/testenv/harness.ts';
import { waitStatus } from '../../scripts/testenv/identity-fixtures.ts';
import { realmIdentitySecret } from '../../src/operator/keycloak/realm-identity.ts';
import { type KeycloakAdmin, keycloakAdmin } from './helpers/keycloak-admin.ts';
import { type OperatorSuite, operatorSuite } from './helpers/operator-suite.ts';

let suite: OperatorSuite;
let env: TestEnv;
let ns: string;
let kc: KeycloakAdmin;
const text = (data: Record<string, string> | undefined, key: string) =>
  Buffer.from(data?.[key] ?? '', 'base64').toString('utf8');

const realm = (name: string, spec: Record<string, unknown> = {}) =>
  env.apply({
    apiVersion: 'realmforge.dev/v1',
    kind: 'IdentityRealm',
    metadata: { name, namespace: ns },
    spec: { serverRef: { name: 'idp' }, clientAuthorizationGrants: [ns], ...spec },
  } as never);

/** A token of a confidential client from `realm`'s token endpoint (the status and the token, if any). */
async function clientToken(tokenRealm: string, clientId: string, secret: string) {
  const res = await fetch(`${kc.url()}/realms/${tokenRealm}/protocol/openid-connect/token`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: clientId,
      client_secret: secret,
    }),
  });
  const body = (await res.json()) as { access_token?: string };
  return { status: res.status, token: body.access_token };
}

const asToken = async (token: string | undefined, path: string) =>
  (await fetch(`${kc.url()}/admin/realms${path}`, { headers: { authorization: `Bearer ${token}` } })).status;

async function realmKey() {
  const s = await env.core.readNamespacedSecret({ namespace: ns, name: 'idp-operator-client' });
  return {
    key: text(s.data, 'realm-key'),
    clientId: text(s.data, 'client-id'),
    secret: text(s.data, 'client-secret'),
  };
}

/** The master identity's service-account user. */
async function masterUser() {
  const [user] = await kc('GET', '/master/users?username=service-account-realmforge-operator&exact=true');
  return user as { id: string };
}

test.before(async () => {
  suite = await operatorSuite('op-realm-id', { server: {} });
  ({ env, ns } = suite);
  kc = keycloakAdmin(env, ns);
  await realm('alpha');
  await realm('beta');
  for (const name of ['alpha', 'beta'])
    await waitStatus(env, 'identityrealms', ns, name, 180_000, (s) => s.phase === 'Ready', 'Ready');
});
test.after(() => suite?.close());

test('the master identity holds create-realm, not admin, and Keycloak refuses it what it was not granted', async () => {
  const user = await masterUser();
  const roles = ((await kc('GET', `/master/users/${user.id}/role-mappings/realm`)) as { name: string }[]).map(
    (r) => r.name,
  );
  assert.ok(roles.includes('create-realm'), roles.join(', '));
  assert.not.ok(roles.includes('admin'), roles.join(', '));
  const { clientId, secret } = await realmKey();
  const master = await clientToken('master', clientId, secret);
  assert.is(master.status, 200);
  assert.is(await asToken(master.token, '/master/users'), 403, 'master users are out of reach');
  // A realm made by hand, which the master identity did not create, is refused by Keycloak itself.
  await kc('POST', '', { realm: 'by-hand', enabled: true });
  // (Keycloak answers its name to any holder of create-realm, and nothing more.)
  assert.is(await asToken(master.token, '/by-hand/clients'), 403);
  assert.is(await asToken(master.token, '/by-hand/users'), 403);
  await kc('DELETE', '/by-hand');
});

test("a realm identity's token is refused for any other realm: Keycloak enforces the boundary", async () => {
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

test('a realm identity deleted by hand is restored with the master identity and reported', async () => {
  const [client] = await kc('GET', '/alpha/clients?clientId=realmforge-operator');
  assert.ok(client, 'alpha carries the operator identity');
  await kc('DELETE', `/alpha/clients/${client.id}`);
  await waitStatus(
    env,
    'identityrealms',
    ns,
    'alpha',
    120_000,
    (s) => s.reason === 'RealmIdentityRestored',
    'reported RealmIdentityRestored',
  );
  const [again] = await kc('GET', '/alpha/clients?clientId=realmforge-operator');
  assert.ok(again && again.id !== client.id, 'a new client');
  const { key } = await realmKey();
  assert.is(
    (await clientToken('alpha', 'realmforge-operator', realmIdentitySecret(key, 'alpha'))).status,
    200,
  );
});

test('an adopted realm without a grant is reported and not written; with the named grant it is managed', async () => {
  await kc('POST', '', { realm: 'legacy', enabled: true, displayName: 'Made by hand' });
  await realm('legacy', { adoptExisting: true, displayName: 'Adopted' });
  const stuck = await waitStatus(
    env,
    'identityrealms',
    ns,
    'legacy',
    120_000,
    (s) => s.reason === 'RealmGrantMissing',
    'RealmGrantMissing',
  );
  assert.match(stuck.status.message, 'client legacy-realm in master');
  assert.match(stuck.status.message, 'manage-realm');
  const live = await kc('GET', '/legacy');
  assert.is(live.displayName, 'Made by hand');
  assert.equal(await kc('GET', '/legacy/clients?clientId=realmforge-operator'), []);
  // The grant the status names, given as a person would.
  const user = await masterUser();
  const [legacyAdmin] = await kc('GET', '/master/clients?clientId=legacy-realm');
  const roles = (await kc('GET', `/master/clients/${legacyAdmin.id}/roles`)) as { name: string }[];
  const named = roles.filter((r) => stuck.status.message.includes(r.name));
  await kc('POST', `/master/users/${user.id}/role-mappings/clients/${legacyAdmin.id}`, named);
  await waitStatus(env, 'identityrealms', ns, 'legacy', 120_000, (s) => s.phase === 'Ready', 'Ready');
  assert.is((await kc('GET', '/legacy')).displayName, 'Adopted');
  assert.is((await kc('GET', '/legacy/clients?clientId=realmforge-operator')).length, 1);
});

test('a realm made by an earlier version (master admin, no realm identity) is migrated', async () => {
  // The earlier version's master identity held admin and created realms without an identity inside.
  const user = await masterUser();
  const admin = await kc('GET', '/master/roles/admin');
  await kc('POST', `/master/users/${user.id}/role-mappings/realm`, [admin]);
  await kc('POST', '', { realm: 'old', enabled: true, attributes: { 'realmforge.dev/owner': `${ns}/old` } });
  await realm('old', { displayName: 'Migrated' });
  await waitStatus(env, 'identityrealms', ns, 'old', 120_000, (s) => s.phase === 'Ready', 'Ready');
  assert.is((await kc('GET', '/old/clients?clientId=realmforge-operator')).length, 1);
  // The master identity got the creator's grant, so admin can go and the realm is still managed and deleted.
  await kc('DELETE', `/master/users/${user.id}/role-mappings/realm`, [admin]);
  const [oldAdmin] = await kc('GET', '/master/clients?clientId=old-realm');
  const held = (await kc('GET', `/master/users/${user.id}/role-mappings/clients/${oldAdmin.id}`)) as {
    name: string;
  }[];
  assert.ok(
    held.some((r) => r.name === 'manage-realm'),
    JSON.stringify(held),
  );
  await env.request('DELETE', `/apis/realmforge.dev/v1/namespaces/${ns}/identityrealms/old`);
  const gone = async () => (await kc('GET', '/old')) === undefined;
  for (let i = 0; i < 60 && !(await gone()); i++) await new Promise((r) => setTimeout(r, 1000));
  assert.ok(await gone(), 'realm old was deleted by the master identity');
});

test.run();
