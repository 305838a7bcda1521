// A new realm in one call: the create body (realm-create.ts) carries roles with their composites, the group tree
// with its role mappings, the realm default roles, the message overrides, the user profile, each item's mark and
// the operator's identity; against the strict in-memory Keycloak the sections it carries make no call after the create, and a
// resync that reads every section writes nothing.
import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import type { IdentityRealm } from '../../../generated/types/crds/identityrealm.ts';
import { RealmforgeError } from '../../../src/core/errors.ts';
import { syncRealm } from '../../../src/operator/controllers/identity-realm/realm-sync.ts';
import { readRecord } from '../../../src/operator/keycloak/collections/record.ts';
import { realmIdentityClientId } from '../../../src/operator/keycloak/realm-identity.ts';
import { SpecRefusedError } from '../../../src/operator/keycloak/spec-refused.ts';
import { bodiesOf, fakeKeycloakAdmin } from './fake-keycloak-admin.ts';

/** The production example, its SMTP password (a Secret) left out as the tenants benchmark does. */
function production(): IdentityRealm {
  const realm = parse(readFileSync('examples/identityrealm-production.yaml', 'utf8')) as IdentityRealm;
  delete realm.spec.smtp;
  return realm;
}

/** The fake, recording each create body it is sent. */
function recording() {
  const kc = fakeKeycloakAdmin();
  return { kc, ...bodiesOf(kc, 'POST', '') };
}

/** The calls about the sections the create call carries. */
const carriedSections = (calls: string[]) =>
  calls.filter((c) => /\/(roles|groups|roles-by-id|localization|users\/profile)(\/|\?|$)/.test(c));

test('the production example: roles, groups, default roles, messages and profile come with the create; a resync writes nothing', async () => {
  const { kc, admin, bodies } = recording();
  const first = await syncRealm(admin, production(), { realmIdentitySecret: 's3cret' });
  assert.is(first.writes[0], 'create realm');
  assert.equal(carriedSections(kc.calls), []);
  const [body] = bodies;
  const owner = 'identity/workforce';
  const payrollAdmin = body?.roles.realm.find((r: any) => r.name === 'payroll-admin');
  assert.equal(payrollAdmin.composites, {
    realm: ['employee'],
    client: { 'realm-management': ['view-users'] },
  });
  // The items are the realm's by its record, which the create call carries (record.ts).
  const record = readRecord(body?.attributes);
  assert.is(record?.owner, owner);
  assert.ok(record?.items['managed-roles']?.includes('payroll-admin'), JSON.stringify(record));
  const payroll = body?.groups.find((g: any) => g.name === 'payroll');
  assert.equal(
    payroll.subGroups.map((g: any) => [g.name, g.clientRoles]),
    [['approvers', { 'realm-management': ['view-clients'] }]],
  );
  assert.ok(record?.items['managed-groups']?.includes('/payroll/approvers'), JSON.stringify(record));
  assert.equal(body?.defaultRoles, ['employee']);
  assert.equal(body?.localizationTexts.de, { loginAccountTitle: 'Bei Acme anmelden' });
  const [profile] = body?.components['org.keycloak.userprofile.UserProfileProvider'] ?? [];
  const doc = JSON.parse(profile.config['kc.user.profile.config'][0]);
  assert.equal(
    doc.attributes.map((a: any) => a.name),
    ['username', 'email', 'firstName', 'lastName', 'staffNumber'],
  );
  assert.is(doc.attributes[2].validations.length.max, 128, 'the declared firstName over the default one');
  assert.equal(
    body?.clients.map((c: any) => c.clientId),
    [realmIdentityClientId],
  );
  kc.reset();
  const again = await syncRealm(admin, production(), { realmIdentitySecret: 's3cret' });
  // The resync read the sections the create carried (so a difference would have been seen), and wrote nothing.
  assert.ok(carriedSections(kc.calls).length >= 5, kc.calls.join('\n'));
  assert.equal(again.writes, []);
  assert.equal(kc.writes(), []);
});

test('a reference the import cannot check goes through the step after the create, and a resync writes nothing', async () => {
  const { kc, admin, bodies } = recording();
  const realm = production();
  // A client made later (an IdentityClient's): Keycloak's import would fail or make the role itself.
  realm.spec.groups = [{ name: 'portal-users', realmRoles: ['employee'], clientRoles: { portal: ['view'] } }];
  await syncRealm(admin, realm, {}).catch(() => undefined);
  assert.equal(bodies[0]?.groups, [
    {
      name: 'portal-users',
      attributes: {
        'realmforge.dev/managed-realm-roles': ['employee'],
        'realmforge.dev/managed-client-roles': ['client/portal/view'],
      },
    },
  ]);
  assert.is(bodies[0]?.defaultRoles, undefined);
  // The step ran after the create (and refused the client that does not exist yet, naming the field).
  assert.ok(carriedSections(kc.calls).length > 0);
});

test('without the roles and groups sections the create sends none of them', async () => {
  const { admin, bodies } = recording();
  const realm = production();
  for (const k of ['roles', 'groups', 'defaultRoles', 'localization'] as const) delete realm.spec[k];
  await syncRealm(admin, realm, {});
  for (const k of ['roles', 'groups', 'defaultRoles', 'localizationTexts', 'clients'])
    assert.is(bodies[0]?.[k], undefined, k);
});

test('a profile naming a client scope the spec declares goes through its step, after the scopes are made', async () => {
  const { kc, admin, bodies } = recording();
  const realm = production();
  const profile = realm.spec.userProfile as NonNullable<IdentityRealm['spec']['userProfile']>;
  profile.attributes = [{ name: 'payrollId', selector: { scopes: ['payroll.read'] } }];
  const first = await syncRealm(admin, realm, {});
  assert.is(bodies[0]?.components, undefined);
  assert.ok(first.writes.includes('create user profile attribute payrollId'), first.writes.join('; '));
  kc.reset();
  assert.equal((await syncRealm(admin, realm, {})).writes, []);
});

test('a create Keycloak refuses names the sections it carried, and leaves no realm', async () => {
  const kc = fakeKeycloakAdmin();
  // Keycloak's import is one transaction: a refusal (400) leaves nothing behind.
  const admin = {
    ...kc.admin,
    call: ((ns, method, path, body, options) =>
      method === 'POST' && path === ''
        ? Promise.reject(new RealmforgeError('validation', 'HTTP 400 Invalid config for length'))
        : kc.admin.call(ns, method, path, body, options)) as typeof kc.admin.call,
  };
  const error = await syncRealm(admin, production(), {}).then(
    () => undefined,
    (e: Error) => e,
  );
  assert.instance(error, SpecRefusedError);
  for (const field of [
    'spec.roles',
    'spec.groups',
    'spec.defaultRoles',
    'spec.localization.messages',
    'spec.userProfile',
  ])
    assert.match(String(error?.message), field);
  assert.match(String(error?.message), 'Invalid config for length');
  assert.is(kc.realms.size, 0);
});

test("a profile naming a validator beyond Keycloak's own goes through its step", async () => {
  const { kc, admin, bodies } = recording();
  const realm = production();
  const profile = realm.spec.userProfile as NonNullable<IdentityRealm['spec']['userProfile']>;
  profile.attributes = [{ name: 'code', validations: { 'custom-checksum': {} } }];
  // Keycloak's import would answer a bare 500; the step's PUT gets a 400 naming the attribute.
  const error = await syncRealm(admin, realm, {}).then(
    () => undefined,
    (e: Error) => e,
  );
  assert.is(bodies[0]?.components, undefined);
  assert.ok(
    kc.calls.some((c) => c.startsWith('PUT /workforce/users/profile')),
    kc.calls.join('\n'),
  );
  assert.match(String(error?.message), 'spec.userProfile.attributes[code]');
});

test.run();
