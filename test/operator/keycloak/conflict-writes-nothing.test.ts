// A conflict anywhere in a section's plan, the last declared item included, means zero writes to that section:
// against the strict in-memory Keycloak, one section per write mode, each holding an item of ours to update, one
// to delete, one to create, and a person's item declared last. The same plan with adoption writes, so "nothing
// written" is the refusal and not a plan that had nothing to do. And a ledger key is claimed before its
// item is written, whether created or adopted.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { clientProfiles } from '../../../src/operator/keycloak/collections/client-policies.ts';
import { realmScopeLinks } from '../../../src/operator/keycloak/collections/client-scopes.ts';
import {
  type Collection,
  configMark,
  type Item,
  ItemConflictError,
  type Ownership,
  ownerAttribute,
  type SyncOptions,
  syncCollection,
} from '../../../src/operator/keycloak/collections/collection.ts';
import { identityProviders } from '../../../src/operator/keycloak/collections/identity-providers.ts';
import { ledgerClaim } from '../../../src/operator/keycloak/collections/late-ledgers.ts';
import { localeMessages } from '../../../src/operator/keycloak/collections/messages.ts';
import { protocolMappers } from '../../../src/operator/keycloak/collections/protocol-mappers.ts';
import { groupRealmRoles } from '../../../src/operator/keycloak/collections/role-mappings.ts';
import { realmRoles } from '../../../src/operator/keycloak/collections/roles.ts';
import { fakeKeycloakAdmin } from './fake-keycloak-admin.ts';

type Kc = ReturnType<typeof fakeKeycloakAdmin>;
type Case = { c: Collection; desired: Item[]; ownership: Ownership; options?: SyncOptions };
type Obj = Record<string, any>;

const owner = 'team/apps';
const ledgerOf = (...keys: string[]): Ownership => ({ managed: new Set(keys) });

async function made(kc: Kc, method: 'POST' | 'PUT', path: string, body?: unknown) {
  const res = await kc.admin.call('t', method, path, body);
  assert.ok(res.status < 300, `${method} ${path}: ${res.status}`);
}

async function realmWith(kc: Kc): Promise<Obj> {
  await made(kc, 'POST', '', { realm: 'apps' });
  return kc.realms.get('apps') as Obj;
}

/** Each section: ours `kept` (to update) and `gone` (to delete), `fresh` to create, a person's `taken` last. */
const sections: Record<string, (kc: Kc) => Promise<Case>> = {
  'realm roles (each, recorded)': async (kc) => {
    await realmWith(kc);
    await made(kc, 'POST', '/apps/roles', { name: 'kept', description: 'old' });
    await made(kc, 'POST', '/apps/roles', { name: 'gone' });
    await made(kc, 'POST', '/apps/roles', { name: 'taken' });
    const desired = [{ name: 'kept', description: 'new' }, { name: 'fresh' }, { name: 'taken' }];
    return {
      c: realmRoles('apps'),
      desired,
      ownership: ledgerOf('kept', 'gone'),
      options: { declaredBefore: true },
    };
  },
  "identity providers (each, an earlier version's config marks)": async (kc) => {
    await realmWith(kc);
    const idp = (alias: string, config: Obj) => ({ alias, providerId: 'oidc', config });
    const base = '/apps/identity-provider/instances';
    const marked = (config: Obj) => ({ ...config, [ownerAttribute]: owner });
    await made(kc, 'POST', base, idp('kept', marked({ clientId: 'old' })));
    await made(kc, 'POST', base, idp('gone', marked({})));
    await made(kc, 'POST', base, idp('taken', {}));
    return {
      c: identityProviders('apps', 26, new Map()),
      desired: [idp('kept', { clientId: 'new' }), idp('fresh', {}), idp('taken', {})],
      ownership: { ...ledgerOf(), legacy: configMark(owner) },
      options: { declaredBefore: true },
    };
  },
  'protocol mappers of a client scope (each, ledger)': async (kc) => {
    const realm = await realmWith(kc);
    await made(kc, 'POST', '/apps/client-scopes', { name: 'orders', protocol: 'openid-connect' });
    const scope = realm.clientScopes.find((s: Obj) => s.name === 'orders');
    const mapper = (name: string, value = 'x') => ({
      name,
      protocol: 'openid-connect',
      protocolMapper: 'oidc-hardcoded-claim-mapper',
      config: { 'claim.value': value },
    });
    const base = `/apps/client-scopes/${scope.id}/protocol-mappers/models`;
    for (const m of [mapper('kept', 'old'), mapper('gone'), mapper('taken')]) await made(kc, 'POST', base, m);
    return {
      c: protocolMappers('apps', scope.id, 'client-scopes'),
      desired: [mapper('kept', 'new'), mapper('fresh'), mapper('taken')],
      ownership: ledgerOf('kept', 'gone'),
      options: { claim: ledgerClaim(kc.admin, 't', '/apps', 'realmforge.dev/test-ledger') },
    };
  },
  'message overrides (map, ledger)': async (kc) => {
    const realm = await realmWith(kc);
    realm.messages.en = { kept: 'old', gone: 'x', taken: 'by hand' };
    const text = (key: string, value: string) => ({ key, value });
    return {
      c: localeMessages('apps', 'en'),
      desired: [text('kept', 'new'), text('fresh', 'x'), text('taken', 'mine')],
      ownership: ledgerOf('kept', 'gone'),
      // Read as the messages sync reads them: the locale's map as items.
      options: {
        live: Object.entries(realm.messages.en).map(([key, value]) => ({ key, value })),
        claim: ledgerClaim(kc.admin, 't', '/apps', 'realmforge.dev/test-ledger'),
      },
    };
  },
  'client profiles (document, ledger)': async (kc) => {
    const realm = await realmWith(kc);
    const profile = (name: string, description = '') => ({ name, description, executors: [] });
    realm.clientProfiles = [profile('kept', 'old'), profile('gone'), profile('taken')];
    return {
      c: clientProfiles('apps'),
      desired: [profile('kept', 'new'), profile('fresh'), profile('taken', 'mine')],
      ownership: ledgerOf('kept', 'gone'),
      // Read as the client-policies sync reads them: the document's list.
      options: { live: structuredClone(realm.clientProfiles) },
    };
  },
  'realm default scope links (link, ledger)': async (kc) => {
    const realm = await realmWith(kc);
    for (const name of ['kept', 'gone', 'fresh', 'taken'])
      await made(kc, 'POST', '/apps/client-scopes', { name, protocol: 'openid-connect' });
    const id = (name: string) => realm.clientScopes.find((s: Obj) => s.name === name).id;
    for (const name of ['kept', 'gone', 'taken'])
      await made(kc, 'PUT', `/apps/default-default-client-scopes/${id(name)}`);
    return {
      c: realmScopeLinks('apps', 'default', realm.clientScopes),
      desired: [{ name: 'kept' }, { name: 'fresh' }, { name: 'taken' }],
      ownership: ledgerOf('kept', 'gone'),
    };
  },
  "a group's realm roles (batch, ledger)": async (kc) => {
    const realm = await realmWith(kc);
    for (const name of ['kept', 'gone', 'fresh', 'taken']) await made(kc, 'POST', '/apps/roles', { name });
    await made(kc, 'POST', '/apps/groups', { name: 'staff' });
    const group = realm.groups.find((g: Obj) => g.name === 'staff');
    const roles = realm.roles.filter((r: Obj) => ['kept', 'gone', 'taken'].includes(r.name));
    await made(kc, 'POST', `/apps/groups/${group.id}/role-mappings/realm`, roles);
    return {
      c: groupRealmRoles('apps', group.id, '/staff'),
      desired: [{ name: 'kept' }, { name: 'fresh' }, { name: 'taken' }],
      ownership: ledgerOf('kept', 'gone'),
    };
  },
};

for (const [name, setUp] of Object.entries(sections)) {
  test(`${name}: a person's item declared last means no write at all`, async () => {
    const kc = fakeKeycloakAdmin();
    const { c, desired, ownership, options = {} } = await setUp(kc);
    kc.reset();
    const refused = await syncCollection(kc.admin, 't', c, desired, ownership, options).then(
      () => undefined,
      (e: Error) => e,
    );
    assert.instance(refused, ItemConflictError);
    assert.match(String(refused?.message), new RegExp(`declares ${c.noun} "taken", which already exists`));
    assert.equal(kc.writes(), [], `${name}: nothing written`);
    // Adopted, the same plan writes: its update, create and delete were there to be sent.
    const adopted = await syncCollection(kc.admin, 't', c, desired, ownership, { ...options, adopt: true });
    assert.ok(adopted.writes.length, `${name}: the plan had writes`);
    assert.ok(kc.writes().length, `${name}: sent`);
  });
}

test('an adopted item is claimed in its ledger before it is written, as a created one is', async () => {
  const kc = fakeKeycloakAdmin();
  const { c, desired, ownership, options } =
    await sections['protocol mappers of a client scope (each, ledger)']!(kc);
  kc.reset();
  await syncCollection(kc.admin, 't', c, desired, ownership, { ...options, adopt: true });
  const writes = kc.writes();
  const claim = writes.indexOf('PUT /apps');
  const adopted = writes.findIndex((w) => w.startsWith('PUT /apps/client-scopes/'));
  assert.ok(claim >= 0 && adopted > claim, writes.join('; '));
});

test('every conflict of a plan is named in the one refusal', async () => {
  const kc = fakeKeycloakAdmin();
  const { c, ownership, options } = await sections['realm roles (each, recorded)']!(kc);
  await made(kc, 'POST', '/apps/roles', { name: 'other' });
  kc.reset();
  const desired = [{ name: 'other' }, { name: 'kept', description: 'new' }, { name: 'taken' }];
  const refused = await syncCollection(kc.admin, 't', c, desired, ownership, options).catch((e: Error) => e);
  assert.match(String((refused as Error).message), /"other", which already exists.*; .*"taken", which/);
  assert.equal(kc.writes(), []);
});

test.run();
