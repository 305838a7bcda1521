// The declarative user profile through the realm sync against the strict in-memory Keycloak: applied with the
// realm's create call, or in one document PUT (an attribute with the group it names), steady with nothing written whatever the order and
// Keycloak's filled-in fields, a hand edit reverted, hand-made attributes and groups kept; dropped from the spec a
// custom attribute or group is deleted and a built-in one reset to the line's default; the unmanaged-attribute
// policy set and reset; a validator Keycloak lacks is Failed/InvalidSpec naming the attribute, and nothing of the
// profile is written (not even a new group declared with it).
import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import type { IdentityRealm } from '../../../generated/types/crds/identityrealm.ts';
import { identityRealmController } from '../../../src/operator/controllers/identity-realm/identity-realm.ts';
import { syncRealm } from '../../../src/operator/controllers/identity-realm/realm-sync.ts';
import { userProfileDefaults } from '../../../src/operator/keycloak/collections/user-profile-defaults.ts';
import { keycloakWorld, realmResource, statusOf } from '../controllers/keycloak-world.ts';
import { fakeKeycloakAdmin } from './fake-keycloak-admin.ts';

type UserProfile = NonNullable<IdentityRealm['spec']['userProfile']>;
const resource = (userProfile?: UserProfile): IdentityRealm => ({
  apiVersion: 'realmforge.dev/v1',
  kind: 'IdentityRealm',
  metadata: { name: 'apps', namespace: 'team' },
  spec: { serverRef: { name: 'kc' }, ...(userProfile ? { userProfile } : {}) },
});
const phone = {
  name: 'phone',
  displayName: 'Phone',
  validations: { pattern: { pattern: '^[0-9+]+$', 'error-message': 'digits only' } },
  annotations: { inputType: 'text' },
  permissions: { view: ['user', 'admin'] as ['user', 'admin'], edit: ['admin'] as ['admin'] },
  required: { roles: ['admin'] as ['admin'], scopes: ['profile', 'email'] },
  selector: { scopes: ['phone'] },
  group: 'contact',
  multivalued: true,
};
const contact = { name: 'contact', displayHeader: 'Contact', displayDescription: 'How to reach you' };
const firstName = {
  name: 'firstName',
  displayName: 'Given name',
  permissions: { view: ['admin'] as ['admin'] },
};
const full: UserProfile = {
  unmanagedAttributePolicy: 'ADMIN_VIEW',
  attributes: [phone, firstName],
  groups: [contact],
};
type Obj = Record<string, any>;
const names = (items: Obj[]) => items.map((i) => i.name);

test('user profile: applied, steady, reverted, hand-made kept, dropped ones deleted or reset', async () => {
  const kc = fakeKeycloakAdmin();
  const created = await syncRealm(kc.admin, resource(full), {});
  // The create call carries the whole document (realm-create.ts): Keycloak judges it with the realm, no PUT.
  assert.equal(created.writes, ['create realm']);
  assert.equal(kc.writes().filter((w) => w.includes('users/profile')).length, 0, kc.writes().join('; '));
  const realm = kc.realms.get('apps') as Obj;
  const profile = () => realm.userProfile as Obj;
  assert.is(profile().unmanagedAttributePolicy, 'ADMIN_VIEW');
  assert.equal(names(profile().attributes), ['username', 'email', 'firstName', 'lastName', 'phone']);
  assert.equal(profile().attributes[4].required, { roles: ['admin'], scopes: ['email', 'profile'] });
  // Made by hand: an attribute and a group; the order Keycloak keeps is not ours to compare.
  profile().attributes.push({ name: 'badge', permissions: { view: ['admin'], edit: ['admin'] } });
  profile().groups.push({ name: 'hand' });
  profile().attributes.reverse();
  kc.reset();
  assert.equal((await syncRealm(kc.admin, resource(full), {})).writes, [], 'steady');
  assert.equal(kc.writes(), []);
  const phoneLive = () => profile().attributes.find((a: Obj) => a.name === 'phone');
  phoneLive().validations = {};
  phoneLive().permissions.view = ['admin'];
  assert.equal((await syncRealm(kc.admin, resource(full), {})).writes, [
    'update user profile attribute phone',
  ]);
  assert.equal(phoneLive().validations, phone.validations, 'reverted');
  // phone, its group and firstName dropped: phone deleted before its group; firstName back to Keycloak's.
  const fewer = await syncRealm(kc.admin, resource({ unmanagedAttributePolicy: 'ADMIN_VIEW' }), {});
  assert.equal(fewer.writes.filter((w) => w.includes('user profile')).sort(), [
    'delete user profile attribute phone',
    'delete user profile group contact',
    'update user profile attribute firstName',
  ]);
  const defaults = userProfileDefaults('26.7.3');
  assert.equal(
    profile().attributes.find((a: Obj) => a.name === 'firstName'),
    defaults.attributes.find((a) => a.name === 'firstName'),
  );
  assert.equal(names(profile().attributes).sort(), ['badge', 'email', 'firstName', 'lastName', 'username']);
  assert.equal(names(profile().groups), ['user-metadata', 'hand']);
  assert.equal(
    (await syncRealm(kc.admin, resource({ unmanagedAttributePolicy: 'ADMIN_VIEW' }), {})).writes,
    [],
  );
  // The whole section dropped: the policy goes back to Keycloak's default (disabled); nothing else changes.
  const none = await syncRealm(kc.admin, resource(), {});
  assert.equal(
    none.writes.filter((w) => w.includes('user profile')),
    ['delete user profile unmanagedAttributePolicy'],
  );
  assert.not.ok('unmanagedAttributePolicy' in profile());
  kc.reset();
  await syncRealm(kc.admin, resource(), {});
  assert.not.ok(
    kc.calls.some((c) => c.includes('users/profile')),
    'nothing declared nor recorded: no read',
  );
});

test('username and email dropped from the spec are reset, never deleted (Keycloak refuses that)', async () => {
  const kc = fakeKeycloakAdmin();
  const email = { name: 'email', displayName: 'Mail', permissions: { view: ['admin'] as ['admin'] } };
  await syncRealm(kc.admin, resource({ attributes: [email] }), {});
  const profile = (kc.realms.get('apps') as Obj).userProfile as Obj;
  assert.is(profile.attributes[1].displayName, 'Mail');
  const reset = await syncRealm(kc.admin, resource({}), {});
  assert.ok(reset.writes.includes('update user profile attribute email'), reset.writes.join('; '));
  const now = (kc.realms.get('apps') as Obj).userProfile as Obj;
  assert.equal(now.attributes[1], userProfileDefaults(undefined).attributes[1]);
});

test('a hand-made attribute the spec declares is NameConflict unless adoption is asked; the policy alone is one entry', async () => {
  const kc = fakeKeycloakAdmin();
  await syncRealm(kc.admin, resource(), {});
  const realm = kc.realms.get('apps') as Obj;
  realm.userProfile = userProfileDefaults(undefined);
  realm.userProfile.attributes.push({ name: 'badge' });
  const badge = { name: 'badge', permissions: { edit: ['admin'] as ['admin'] } };
  kc.reset();
  const refused = await syncRealm(kc.admin, resource({ attributes: [badge] }), {}).then(
    () => undefined,
    (e: Error & { reason?: string }) => e,
  );
  assert.is(refused?.reason, 'NameConflict');
  assert.match(String(refused?.message), 'user profile "attribute badge", which already exists');
  assert.not.ok(
    kc.writes().some((w) => w.includes('users/profile')),
    'the profile is not written',
  );
  const adopting = { ...resource({ attributes: [badge] }) };
  adopting.spec = { ...adopting.spec, adoptExisting: true };
  const taken = await syncRealm(kc.admin, adopting, {});
  assert.ok(taken.writes.includes('update user profile attribute badge'), taken.writes.join('; '));
  const policy = await syncRealm(
    kc.admin,
    resource({ attributes: [badge], unmanagedAttributePolicy: 'ENABLED' }),
    {},
  );
  assert.equal(
    policy.writes.filter((w) => w.includes('user profile')),
    ['create user profile unmanagedAttributePolicy'],
  );
  assert.is(realm.userProfile.unmanagedAttributePolicy, 'ENABLED');
});

test('a validator Keycloak lacks is Failed/InvalidSpec naming the attribute, in Keycloak words; nothing of the profile written', async () => {
  const spec = {
    userProfile: {
      attributes: [{ name: 'phone', group: 'contact', validations: { 'no-such-validator': {} } }],
      groups: [{ name: 'contact' }],
    },
  };
  const world = keycloakWorld([realmResource('apps', 'identity', spec)]);
  const outcome = await identityRealmController(world.deps)('identity/apps');
  assert.is(outcome.outcome?.reason, 'InvalidSpec');
  const status = statusOf(world, 'IdentityRealm', 'identity', 'apps');
  assert.is(status.phase, 'Failed');
  assert.match(status.message ?? '', 'spec.userProfile.attributes[phone]');
  assert.match(
    status.message ?? '',
    "Validator 'no-such-validator' defined for attribute 'phone' doesn't exist",
  );
  // A validator beyond Keycloak's own is not in the create call: Keycloak refused the one document after it, and
  // the realm's profile is as a new realm has it.
  const realm = world.keycloak.realms.get('apps') as Obj;
  assert.equal(names(realm.userProfile?.attributes ?? []), ['username', 'email', 'firstName', 'lastName']);
  assert.equal(names(realm.userProfile?.groups ?? []), ['user-metadata'], 'not even the new group');
});

test("the production example's profile applies on the strict fake and is steady", async () => {
  const example = parse(readFileSync('examples/identityrealm-production.yaml', 'utf8')) as IdentityRealm;
  const kc = fakeKeycloakAdmin();
  const profileOnly = resource(example.spec.userProfile);
  const created = await syncRealm(kc.admin, profileOnly, {});
  assert.equal(created.writes, ['create realm']);
  assert.ok(names((kc.realms.get('apps') as Obj).userProfile.attributes).includes('staffNumber'));
  assert.equal((await syncRealm(kc.admin, profileOnly, {})).writes, []);
});

test.run();
