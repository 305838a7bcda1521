// A create whose answer was lost: the realm and client syncs read back by natural key before anything else, so a
// lost answer never makes a duplicate, and a create that never arrived is made once by the next reconcile.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { IdentityClient } from '../../../generated/types/crds/identityclient.ts';
import type { IdentityRealm } from '../../../generated/types/crds/identityrealm.ts';
import { syncClient } from '../../../src/operator/controllers/identity-client/client-sync.ts';
import { syncRealm } from '../../../src/operator/controllers/identity-realm/realm-sync.ts';
import type { AdminClient } from '../../../src/operator/keycloak/admin-client.ts';
import { OutcomeUnknownError } from '../../../src/operator/keycloak/outcome-unknown.ts';
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
  assert.equal(kc.calls.slice(0, 3), [
    'GET /apps/clients?clientId=web&max=2',
    'POST /apps/clients',
    'GET /apps/clients?clientId=web&max=2',
  ]);
  assert.is(kc.calls.filter((c) => c === 'POST /apps/clients').length, 1);
  assert.is(kc.realms.get('apps')?.clients.filter((c) => c.clientId === 'web').length, 1);
});

test.run();
