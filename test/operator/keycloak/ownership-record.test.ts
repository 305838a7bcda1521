// The ownership record (record.ts): one attribute holding owner, origin, fields, items and recorded values; read
// from an earlier version's attributes; written over the live record (an entry left out is kept, one sent empty
// dropped); and the migration of a realm and a client made by an earlier version: one update each, the legacy
// attributes removed in it, then zero writes.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { KubeObject } from '../../../src/operator/compile/kube-object.ts';
import { identityClientController } from '../../../src/operator/controllers/identity-client/identity-client.ts';
import { identityRealmController } from '../../../src/operator/controllers/identity-realm/identity-realm.ts';
import { ownerAttribute } from '../../../src/operator/keycloak/collections/collection.ts';
import {
  inRecord,
  openRecord,
  readRecord,
  recordAttribute,
  sealRecord,
} from '../../../src/operator/keycloak/collections/record.ts';
import { sectionLedgers } from '../../../src/operator/keycloak/collections/section-ownership.ts';
import { clientResource, keycloakWorld, realmResource } from '../controllers/keycloak-world.ts';
import { allGroups } from './fake-keycloak-groups.ts';
import { recorded } from './recorded.ts';

type Obj = Record<string, unknown>;

/** What an earlier version left on a realm: its marks as attributes of their own. */
const legacyRealm: Obj = {
  'realmforge.dev/owner': 'identity/apps',
  'realmforge.dev/managed-fields': 'attributes/realmforge.dev/owner,displayName,+roles',
  'realmforge.dev/managed-messages': 'en/title,de/title',
  'realmforge.dev/ldap-mappers': 'corp/email,corp/groups',
  'realmforge.dev/required-actions-before': '{"CONFIGURE_TOTP":{"enabled":true}}',
  'realmforge.dev/smtp-password-hash': 'abc',
  'frontendUrl.by.hand': 'x',
};

test('an earlier version attributes read as a record: owner, fields, items in their order, values besides', () => {
  assert.equal(readRecord(legacyRealm), {
    v: 1,
    owner: 'identity/apps',
    how: 'migrated',
    fields: ['attributes/realmforge.dev/owner', 'displayName', '+roles'],
    items: { 'ldap-mappers': ['corp/email', 'corp/groups'], 'managed-messages': ['en/title', 'de/title'] },
    recorded: {
      'required-actions-before': '{"CONFIGURE_TOTP":{"enabled":true}}',
      'smtp-password-hash': 'abc',
    },
  });
  assert.is(readRecord({ other: 'x' }), undefined, 'nothing of ours: no record');
  assert.not.ok(inRecord('realmforge.dev/secret-rotation-grace'), 'matched by Keycloak policies: stays');
  assert.throws(() => readRecord({ [recordAttribute]: '{"v":2}' }), /version 2/);
  assert.throws(() => readRecord({ [recordAttribute]: '{"v":1' }), /not the JSON the operator wrote/);
});

test('sealed then opened: the same entries, one attribute in Keycloak; others untouched', () => {
  const sealed = sealRecord({ displayName: 'Apps', attributes: legacyRealm });
  const attributes = sealed.attributes as Obj;
  assert.equal(Object.keys(attributes).sort(), ['frontendUrl.by.hand', recordAttribute]);
  assert.is(readRecord(attributes)?.how, 'created');
  const opened = openRecord(sealed).attributes as Obj;
  for (const [k, v] of Object.entries(legacyRealm)) assert.is(opened[k], v, k);
});

test('written over the live record: an entry left out is kept, one sent empty is dropped; origin kept', () => {
  const live = openRecord(sealRecord({ attributes: legacyRealm }));
  const body = {
    attributes: { 'realmforge.dev/managed-messages': '', 'realmforge.dev/managed-flows': 'mine' },
  };
  const next = readRecord(sealRecord(body, live).attributes as Obj);
  assert.equal(next?.items, {
    'ldap-mappers': ['corp/email', 'corp/groups'],
    'managed-flows': ['mine'],
  });
  assert.is(next?.recorded['smtp-password-hash'], 'abc');
  assert.is(next?.how, 'created');
  const handMade = { attributes: { colour: 'red' } };
  const adopted = sealRecord({ attributes: { 'realmforge.dev/owner': 'identity/apps' } }, handMade);
  assert.is(readRecord(adopted.attributes as Obj)?.how, 'adopted');
  assert.equal(sealRecord({ attributes: { colour: 'blue' } }, live), { attributes: { colour: 'blue' } });
});

test('an earlier version object: the update writes the record and sends its legacy attributes empty', () => {
  const body = sealRecord(
    { attributes: { 'realmforge.dev/owner': 'identity/apps' } },
    { attributes: legacyRealm },
  );
  const attributes = body.attributes as Obj;
  for (const k of Object.keys(legacyRealm).filter(inRecord)) assert.is(attributes[k], '', k);
  assert.not.ok('frontendUrl.by.hand' in attributes, 'not ours: not sent');
  assert.is(readRecord(attributes)?.how, 'migrated');
  assert.is(readRecord(attributes)?.recorded['smtp-password-hash'], 'abc');
});

/** Turns a record-carrying object back into what an earlier version left: every entry an attribute of its own. */
function makeLegacy(live: Obj | undefined): void {
  if (!live) throw new Error('no object');
  const { [recordAttribute]: record, ...attributes } = openRecord(live).attributes as Obj;
  assert.ok(record, 'it had a record');
  live.attributes = attributes;
}
/** An object's attributes as the sections read them, its record attribute aside. */
const entries = (live: Obj | undefined) => {
  const { [recordAttribute]: _, ...rest } = (openRecord(live)?.attributes ?? {}) as Obj;
  return rest;
};
const keysOf = (live: Obj | undefined) =>
  Object.entries((live?.attributes ?? {}) as Obj)
    .filter(([k, v]) => (inRecord(k) || k === recordAttribute) && v !== '')
    .map(([k]) => k);

test('a realm and a client of an earlier version: one update each writes the record, then zero writes', async () => {
  const world = keycloakWorld([
    realmResource('apps', 'identity', {
      clientAuthorizationGrants: ['team'],
      displayName: 'Apps',
      roles: [{ name: 'reader' }],
      localization: { supportedLocales: ['en'], defaultLocale: 'en', messages: { en: { loginTitle: 'Hi' } } },
      requiredActions: [{ alias: 'CONFIGURE_TOTP', defaultAction: true }],
    }),
    clientResource('web', 'team', {
      protocolMappers: [{ name: 'aud', protocolMapper: 'oidc-audience-mapper', config: {} }],
    }),
  ]);
  const realm = () => world.keycloak.realms.get('apps') as Obj | undefined;
  const client = () => ((realm()?.clients ?? []) as Obj[]).find((c) => c.clientId === 'web');
  await identityRealmController(world.deps)('identity/apps');
  await identityClientController(world.deps)('team/web');
  const realmEntries = entries(realm());
  const clientEntries = entries(client());
  makeLegacy(realm());
  makeLegacy(client());
  assert.ok(keysOf(realm()).includes('realmforge.dev/managed-messages'), 'a realm ledger as an attribute');
  assert.ok(keysOf(client()).includes('realmforge.dev/managed-mappers'), 'a client ledger as an attribute');

  world.keycloak.reset();
  const realmSync = await identityRealmController(world.deps)('identity/apps');
  const clientSync = await identityClientController(world.deps)('team/web');
  assert.equal(realmSync.outcome?.writes, [`update realm (${recordAttribute})`]);
  assert.equal(clientSync.outcome?.writes, [`update client (${recordAttribute})`]);
  assert.equal(world.keycloak.writes().length, 2, world.keycloak.writes().join('\n'));
  assert.equal(keysOf(realm()), [recordAttribute], 'the legacy realm attributes are gone');
  assert.equal(keysOf(client()), [recordAttribute], 'the legacy client attributes are gone');
  assert.equal(entries(realm()), realmEntries, 'the realm record says what they said');
  assert.equal(entries(client()), clientEntries, 'the client record says what they said');
  assert.is(readRecord(realm()?.attributes as Obj)?.how, 'migrated');

  world.keycloak.reset();
  await identityRealmController(world.deps)('identity/apps');
  await identityClientController(world.deps)('team/web');
  assert.equal(world.keycloak.writes(), [], 'after the migration: zero writes');
});

/** What the release before the section record left: each item of the marked sections carrying the owner attribute
 * (a string on client scopes), the sections absent from the record. */
function markItemsLegacy(realm: Obj, client: Obj, owners: { realm: string; client: string }): void {
  const strip = (live: Obj) => {
    const { [recordAttribute]: _, ...attributes } = openRecord(live).attributes as Obj;
    for (const name of Object.values(sectionLedgers)) delete attributes[name];
    live.attributes = sealRecord({ attributes }).attributes;
  };
  const mark = (item: Obj, owner: string, list = true) => {
    item.attributes = { ...(item.attributes as Obj), [ownerAttribute]: list ? [owner] : owner };
  };
  const roles = recorded(realm, 'roles');
  for (const r of realm.roles as Obj[]) if (roles.has(String(r.name))) mark(r, owners.realm);
  for (const g of allGroups(realm.groups as Obj[])) mark(g, owners.realm);
  for (const c of realm.clientScopes as Obj[]) if (c.name === 'orders') mark(c, owners.realm, false);
  for (const o of realm.organizations as Obj[]) mark(o, owners.realm);
  for (const r of client.roles as Obj[]) mark(r, owners.client);
  strip(realm);
  strip(client);
}

test('marked items of an earlier version: recorded by one update of the realm and one of the client, no item written', async () => {
  const world = keycloakWorld([
    realmResource('apps', 'identity', {
      clientAuthorizationGrants: ['team'],
      roles: [{ name: 'reader' }],
      groups: [{ name: 'eng' }, { name: 'backend', parent: '/eng' }],
      clientScopes: [{ name: 'orders' }],
      organizations: [{ name: 'acme', domains: [{ name: 'acme.test' }] }],
    }),
    clientResource('web', 'team', { roles: [{ name: 'viewer' }] }),
  ]);
  const realm = () => world.keycloak.realms.get('apps') as Obj;
  const client = () => ((realm().clients ?? []) as Obj[]).find((c) => c.clientId === 'web') as Obj;
  assert.is((await identityRealmController(world.deps)('identity/apps')).outcome?.phase, 'Ready');
  assert.is((await identityClientController(world.deps)('team/web')).outcome?.phase, 'Ready');
  const before = { realm: entries(realm()), client: entries(client()) };
  assert.equal(
    [...recorded(realm(), 'groups')],
    ['/eng', '/eng/backend'],
    'the record lists the groups by path',
  );
  markItemsLegacy(realm(), client(), { realm: 'identity/apps', client: 'team/web' });
  assert.is(recorded(realm(), 'roles').size, 0, 'the sections are not in the record yet');

  world.keycloak.reset();
  await identityRealmController(world.deps)('identity/apps');
  await identityClientController(world.deps)('team/web');
  assert.equal(
    world.keycloak.writes().map((w) => w.split(' ').slice(0, 2).join(' ')),
    ['PUT /apps', `PUT /apps/clients/${client().id}`],
    'the realm and the client, once each',
  );
  assert.equal(entries(realm()), before.realm, 'the realm record lists the marked items');
  assert.equal(entries(client()), before.client, 'the client record lists its marked roles');

  world.keycloak.reset();
  await identityRealmController(world.deps)('identity/apps');
  await identityClientController(world.deps)('team/web');
  assert.equal(world.keycloak.writes(), [], 'after the migration: zero writes');
});

test('an earlier version realm observed: its migration is bookkeeping, no difference, nothing written', async () => {
  const world = keycloakWorld([realmResource('apps', 'identity', { displayName: 'Apps' })]);
  await identityRealmController(world.deps)('identity/apps');
  makeLegacy(world.keycloak.realms.get('apps') as Obj);
  const resource = world.kube.find('IdentityRealm', 'identity', 'apps') as KubeObject & { spec: object };
  world.kube.put({ ...resource, spec: { ...resource.spec, managementPolicy: 'Observe' } } as KubeObject);
  world.keycloak.reset();
  const observed = await identityRealmController(world.deps)('identity/apps');
  assert.equal(world.keycloak.writes(), []);
  assert.is(observed.outcome?.phase, 'Ready', JSON.stringify(observed.outcome));
  assert.equal(
    keysOf(world.keycloak.realms.get('apps') as Obj).includes(recordAttribute),
    false,
    'not migrated',
  );
});

test.run();
