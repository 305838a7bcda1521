// Required actions through the realm sync against the strict in-memory Keycloak: declared settings applied (on a
// created realm in its first reconcile too), steady, a hand edit reverted, and an action the spec stops declaring
// put back to the settings it had before, even when that reset is cut short once.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { IdentityRealm } from '../../../generated/types/crds/identityrealm.ts';
import { syncRealm } from '../../../src/operator/controllers/identity-realm/realm-sync.ts';
import type { AdminClient } from '../../../src/operator/keycloak/admin-client.ts';
import { fakeKeycloakAdmin } from './fake-keycloak-admin.ts';

type Spec = Partial<IdentityRealm['spec']>;
const resource = (spec: Spec): IdentityRealm => ({
  apiVersion: 'realmforge.dev/v1',
  kind: 'IdentityRealm',
  metadata: { name: 'acts', namespace: 'team' },
  spec: { serverRef: { name: 'kc' }, ...spec },
});
const declared: Spec = {
  requiredActions: [
    { alias: 'CONFIGURE_TOTP', defaultAction: true, priority: 5 },
    { alias: 'TERMS_AND_CONDITIONS', enabled: true },
  ],
};
const settings = (kc: ReturnType<typeof fakeKeycloakAdmin>, alias: string) => {
  const a = ((kc.realms.get('acts')?.requiredActions ?? []) as any[]).find((x) => x.alias === alias);
  return [a.enabled, a.defaultAction, a.priority];
};

test('declared settings applied in the first reconcile, steady, a hand edit reverted', async () => {
  const kc = fakeKeycloakAdmin();
  const writes = (await syncRealm(kc.admin, resource(declared), {})).writes;
  assert.equal(writes, [
    'create realm',
    'update realm (attributes/realmforge.dev/required-actions-before, realmforge.dev/managed-fields)',
    'update required action CONFIGURE_TOTP',
    'update required action TERMS_AND_CONDITIONS',
  ]);
  assert.equal(settings(kc, 'CONFIGURE_TOTP'), [true, true, 5]);
  assert.equal(settings(kc, 'TERMS_AND_CONDITIONS'), [true, false, 20]);
  kc.reset();
  assert.equal((await syncRealm(kc.admin, resource(declared), {})).writes, []);
  assert.equal(kc.calls, ['GET /acts', 'GET /acts/authentication/required-actions']);
  await kc.admin.call('t', 'PUT', '/acts/authentication/required-actions/CONFIGURE_TOTP', {
    enabled: false,
    defaultAction: false,
    priority: 10,
  });
  assert.equal((await syncRealm(kc.admin, resource(declared), {})).writes, [
    'update required action CONFIGURE_TOTP',
  ]);
  assert.equal(settings(kc, 'CONFIGURE_TOTP'), [true, true, 5]);
});

test('an action no longer declared goes back to its settings from before, even after an interrupted reset', async () => {
  const kc = fakeKeycloakAdmin();
  await syncRealm(kc.admin, resource({}), {});
  // Set by hand before the spec took it over: that is what it goes back to.
  await kc.admin.call('t', 'PUT', '/acts/authentication/required-actions/UPDATE_PASSWORD', {
    enabled: true,
    defaultAction: false,
    priority: 33,
  });
  const spec: Spec = { requiredActions: [{ alias: 'UPDATE_PASSWORD', defaultAction: true, priority: 1 }] };
  await syncRealm(kc.admin, resource(spec), {});
  assert.equal(settings(kc, 'UPDATE_PASSWORD'), [true, true, 1]);
  // The reset is cut short after the realm update (the required-action write fails once).
  const failing: AdminClient = {
    ...kc.admin,
    call: (ns, method, path, body) =>
      method === 'PUT' && path.includes('required-actions')
        ? Promise.reject(new Error('connection reset'))
        : kc.admin.call(ns, method, path, body),
  };
  await syncRealm(failing, resource({}), {}).catch(() => undefined);
  assert.equal(settings(kc, 'UPDATE_PASSWORD'), [true, true, 1], 'not reset yet');
  const retried = await syncRealm(kc.admin, resource({}), {});
  assert.ok(retried.writes.includes('update required action UPDATE_PASSWORD'), retried.writes.join('; '));
  assert.equal(settings(kc, 'UPDATE_PASSWORD'), [true, false, 33], 'back to what it was before the spec');
  await syncRealm(kc.admin, resource({}), {});
  kc.reset();
  assert.equal((await syncRealm(kc.admin, resource({}), {})).writes, []);
  assert.equal(kc.calls, ['GET /acts'], 'once reset, required actions are not read again');
});

test('an alias Keycloak does not have is InvalidSpec naming it, before any write', async () => {
  const kc = fakeKeycloakAdmin();
  await syncRealm(kc.admin, resource({}), {});
  kc.reset();
  const error = await syncRealm(kc.admin, resource({ requiredActions: [{ alias: 'NO_SUCH' }] }), {}).then(
    () => undefined,
    (e: Error & { kind?: string }) => e,
  );
  assert.is(error?.kind, 'validation');
  assert.match(String(error?.message), /spec\.requiredActions: Keycloak has no required action "NO_SUCH"/);
  assert.equal(kc.writes(), []);
});

test.run();
