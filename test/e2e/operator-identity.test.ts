// The operator's own Keycloak identity on a deployed Keycloak 26: once the server is Ready, the operator works with
// its client realmforge-operator (kept in <server>-operator-client), so the bootstrap admin is not needed any more.
// The test makes the bootstrap admin useless (its password changed in Keycloak, behind the Secret's back) and
// deletes its Secret; the server stays Ready and a new realm and client still reach Ready.

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { TestEnv } from '../../scripts/testenv/harness.ts';
import { waitStatus } from '../../scripts/testenv/identity-fixtures.ts';
import { openRecord } from '../../src/operator/keycloak/collections/record.ts';
import { loadEndpointMap } from '../../src/operator/runtime/endpoint-map.ts';
import { keycloakAdminApi } from './helpers/keycloak-admin.ts';
import { type OperatorSuite, operatorSuite } from './helpers/operator-suite.ts';

let suite: OperatorSuite;
let env: TestEnv;
let ns: string;
const text = (data: Record<string, string> | undefined, key: string) =>
  Buffer.from(data?.[key] ?? '', 'base64').toString('utf8');

test.before(async () => {
  suite = await operatorSuite('op-identity', { server: {} });
  ({ env, ns } = suite);
});
test.after(() => suite?.close());

test('with its own client in place, the bootstrap admin can go: a new realm and client reach Ready', async () => {
  const kept = await env.core.readNamespacedSecret({ namespace: ns, name: 'idp-operator-client' });
  assert.is(text(kept.data, 'client-id'), 'realmforge-operator');
  const bootstrap = await env.core.readNamespacedSecret({ namespace: ns, name: 'idp-admin-credentials' });
  const account = { username: text(bootstrap.data, 'username'), password: text(bootstrap.data, 'password') };
  const url = () =>
    loadEndpointMap(env.state.endpointMapFile).resolve(`http://idp.${ns}.svc:8080`).replace(/\/$/, '');
  const asBootstrap = keycloakAdminApi(url, async () => account);
  // The bootstrap admin becomes useless: its password changes in Keycloak, and its Secret is deleted.
  const [user] = await asBootstrap(
    'GET',
    `/master/users?username=${encodeURIComponent(account.username)}&exact=true`,
  );
  await asBootstrap('PUT', `/master/users/${user.id}/reset-password`, {
    type: 'password',
    value: 'changed-behind-the-operator',
    temporary: false,
  });
  await env.core.deleteNamespacedSecret({ namespace: ns, name: 'idp-admin-credentials' });
  await env.apply({
    apiVersion: 'realmforge.dev/v1',
    kind: 'IdentityRealm',
    metadata: { name: 'after', namespace: ns },
    spec: {
      serverRef: { name: 'idp' },
      displayName: 'Made after the bootstrap admin left',
      clientAuthorizationGrants: [ns],
    },
  } as never);
  await env.apply({
    apiVersion: 'realmforge.dev/v1',
    kind: 'IdentityClient',
    metadata: { name: 'web', namespace: ns },
    spec: { realmRef: { name: 'after' }, redirectUris: ['https://web.example.test/cb'] },
  } as never);
  await waitStatus(env, 'identityrealms', ns, 'after', 180_000, (s) => s.phase === 'Ready', 'Ready');
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
  const asChanged = keycloakAdminApi(url, async () => ({
    ...account,
    password: 'changed-behind-the-operator',
  }));
  const live = await asChanged('GET', '/after');
  assert.is(live.displayName, 'Made after the bootstrap admin left');
  assert.is(openRecord(live).attributes?.['realmforge.dev/owner'], `${ns}/after`);
  assert.is((await asChanged('GET', '/after/clients?clientId=web'))[0]?.clientId, 'web');
});

test.run();
