// The operator's identity per realm on Keycloak 26: a realm identity's token is refused for any other realm, every
// section the operator writes is within its roles (organizations included), a disabled realm is managed with the
// master identity; then the tests every supported line shares (helpers/realm-identity-tests.ts: the master identity
// refused on a realm it did not create, a realm identity restored, adoption after the named grant, an earlier
// release's server reduced, the bootstrap admin not needed).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { TestEnv } from '../../scripts/testenv/harness.ts';
import { waitStatus } from '../../scripts/testenv/identity-fixtures.ts';
import { realmIdentitySecret } from '../../src/operator/keycloak/realm-identity.ts';
import type { KeycloakAdmin } from './helpers/keycloak-admin.ts';
import { type OperatorSuite, operatorSuite } from './helpers/operator-suite.ts';
import { identityTools, realmIdentityTests } from './helpers/realm-identity-tests.ts';

let suite: OperatorSuite;
let env: TestEnv;
let ns: string;
let kc: KeycloakAdmin;
const tools = identityTools(() => ({ suite }));
const { realm, clientToken, asToken } = tools;
const realmKey = async () => ({ key: (await tools.operatorSecret()).key });

test.before(async () => {
  suite = await operatorSuite('op-realm-id', { server: {} });
  ({ env, ns } = suite);
  kc = tools.admin();
  await kc('GET', '/master'); // the bootstrap admin is read before the shared tests delete its Secret
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

test.run();
