// A create whose answer was lost: the realm and client syncs read back by natural key before anything else, so a
// lost answer never makes a duplicate, and a create that never arrived is made once by the next reconcile.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { IdentityClient } from '../../../generated/types/crds/identityclient.ts';
import type { IdentityRealm } from '../../../generated/types/crds/identityrealm.ts';
import { manualClock } from '../../../src/core/clock.ts';
import { syncClient } from '../../../src/operator/controllers/identity-client/client-sync.ts';
import { syncRealm } from '../../../src/operator/controllers/identity-realm/realm-sync.ts';
import type { AdminClient } from '../../../src/operator/keycloak/admin-client.ts';
import { OutcomeUnknownError } from '../../../src/operator/keycloak/outcome-unknown.ts';
import { realmCreateTimeoutMs } from '../../../src/operator/keycloak/realm-create-timeout.ts';
import { fakeKeycloakAdmin } from './fake-keycloak-admin.ts';

const realm: IdentityRealm = {
  apiVersion: 'realmforge.dev/v1',
  kind: 'IdentityRealm',
  metadata: { name: 'apps', namespace: 'team' },
  spec: { serverRef: { name: 'kc' }, roles: [{ name: 'reader' }] },
};
const client: IdentityClient = {
  apiVersion: 'realmforge.dev/v1',
  kind: 'IdentityClient',
  metadata: { name: 'web', namespace: 'team' },
  spec: { realmRef: { name: 'apps' } },
};

/** The fake's admin client, losing the answer of the first POST to `path`: after applying it, or before. */
function losing(admin: AdminClient, path: string, applied: boolean): AdminClient {
  let lost = false;
  return {
    baseUrl: admin.baseUrl,
    async call(namespace, method, p, body) {
      if (method === 'POST' && p === path && !lost) {
        lost = true;
        if (applied) await admin.call(namespace, method, p, body);
        throw new OutcomeUnknownError(method, p, 'UND_ERR_HEADERS_TIMEOUT');
      }
      return admin.call(namespace, method, p, body);
    },
  } as AdminClient;
}

test('a realm created but its answer lost: read back by name, not sent again, and the sync goes on', async () => {
  const kc = fakeKeycloakAdmin();
  const result = await syncRealm(losing(kc.admin, '', true), realm, {});
  assert.equal(result.writes, ['create realm']);
  assert.ok(result.realmId, 'the read-back realm id');
  assert.is(kc.calls.filter((c) => c === 'POST ').length, 1, 'one create');
  assert.equal(kc.calls.slice(0, 3), ['GET /apps', 'POST ', 'GET /apps']);
  assert.equal([...kc.realms.keys()], ['apps']);
});

test('a realm create that never arrived: the error stands, and the next reconcile creates it once', async () => {
  const kc = fakeKeycloakAdmin();
  const admin = losing(kc.admin, '', false);
  const error = await syncRealm(admin, realm, {}).catch((e) => e);
  assert.instance(error, OutcomeUnknownError);
  assert.equal(kc.writes(), [], 'nothing sent after the lost create but the read-back');
  assert.equal((await syncRealm(admin, realm, {})).writes, ['create realm']);
  assert.is(kc.writes().filter((c) => c === 'POST ').length, 1);
});

test('a client created but its answer lost: read back by clientId; exactly one client exists', async () => {
  const kc = fakeKeycloakAdmin();
  await syncRealm(kc.admin, realm, {});
  kc.reset();
  const result = await syncClient(losing(kc.admin, '/apps/clients', true), 'apps', client);
  assert.is(result.writes[0], 'create client');
  assert.equal(kc.calls.slice(0, 2), ['POST /apps/clients', 'GET /apps/clients?clientId=web&max=2']);
  assert.is(kc.calls.filter((c) => c === 'POST /apps/clients').length, 1);
  assert.is(kc.realms.get('apps')?.clients.filter((c) => c.clientId === 'web').length, 1);
});

test('a realm create slower than its timeout: the retry\'s 409 is read back, found ours, never "someone else"', async () => {
  const kc = fakeKeycloakAdmin();
  // The first create times out and Keycloak finishes it only after the read-back (a slow Keycloak): the next
  // reconcile reads nothing, sends the create again and gets 409 from the realm the first one made meanwhile.
  let pending: unknown;
  const slow: AdminClient = {
    baseUrl: kc.admin.baseUrl,
    async call(namespace, method, p, body, options) {
      if (method === 'POST' && p === '' && pending === undefined) {
        pending = body;
        throw new OutcomeUnknownError(method, p, 'TimeoutError');
      }
      if (method === 'POST' && p === '' && pending !== null) {
        await kc.admin.call(namespace, 'POST', '', pending);
        pending = null;
      }
      return kc.admin.call(namespace, method, p, body, options);
    },
  };
  const first = await syncRealm(slow, realm, {}).catch((e) => e);
  assert.instance(first, OutcomeUnknownError);
  const second = await syncRealm(slow, realm, {});
  assert.equal(second.writes.slice(0, 1), ['create realm']);
  assert.ok(second.realmId, 'the realm read back after the 409');
  assert.equal([...kc.realms.keys()], ['apps']);
});

test('a 409 for a realm made outside realmforge meanwhile is not taken: a conflict that says so', async () => {
  const kc = fakeKeycloakAdmin();
  const racing: AdminClient = {
    baseUrl: kc.admin.baseUrl,
    async call(namespace, method, p, body, options) {
      if (method === 'POST' && p === '') await kc.admin.call(namespace, 'POST', '', { realm: 'apps' });
      return kc.admin.call(namespace, method, p, body, options);
    },
  };
  const error = await syncRealm(racing, realm, {}).catch((e) => e);
  assert.match(
    error.message,
    /realm apps was created outside realmforge while this resource was creating it/,
  );
  assert.is(kc.realms.get('apps')?.attributes?.['realmforge.dev/owner'], undefined, 'nothing written to it');
});

test('a realm create waits as long as its Keycloak needed before: 2 min at least, 4x the slowest, 10 min at most', async () => {
  const kc = fakeKeycloakAdmin();
  const clock = manualClock();
  const timeouts: (number | undefined)[] = [];
  let takes = 50_000;
  const timed: AdminClient = {
    baseUrl: kc.admin.baseUrl,
    async call(namespace, method, p, body, options) {
      if (method === 'POST' && p === '') {
        timeouts.push(options?.timeoutMs);
        clock.advance(takes);
      }
      return kc.admin.call(namespace, method, p, body, options);
    },
  };
  for (const name of ['a', 'b', 'c']) {
    await syncRealm(timed, { ...realm, metadata: { name, namespace: 'team' } }, { clock });
    takes = 200_000;
  }
  assert.equal(timeouts, [120_000, 200_000, 600_000]);
  assert.is(realmCreateTimeoutMs(10_000), 120_000);
});

test.run();
