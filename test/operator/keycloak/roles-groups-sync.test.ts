// Roles and groups in full through the realm sync, against the strict in-memory Keycloak: composite roles (realm
// and client), role and group attributes, the realm's default roles, subgroups at any depth and group client-role
// mappings. Applied they read back equal, a steady resync writes nothing, a hand edit is reverted, what the spec
// stops declaring is taken back, and what Keycloak or a person made stays.

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { IdentityRealm } from '../../../generated/types/crds/identityrealm.ts';
import { syncRealm } from '../../../src/operator/controllers/identity-realm/realm-sync.ts';
import { openRecord } from '../../../src/operator/keycloak/collections/record.ts';
import { fakeKeycloakAdmin } from './fake-keycloak-admin.ts';
import { recorded } from './recorded.ts';

type Spec = Partial<IdentityRealm['spec']>;
const resource = (spec: Spec): IdentityRealm => ({
  apiVersion: 'realmforge.dev/v1',
  kind: 'IdentityRealm',
  metadata: { name: 'corp', namespace: 'team' },
  spec: { serverRef: { name: 'kc' }, ...spec },
});

/** A Keycloak with realm corp and a client `portal` with roles view and edit (made outside the spec). */
async function world(spec: Spec = {}) {
  const kc = fakeKeycloakAdmin();
  await syncRealm(kc.admin, resource(spec), {});
  await kc.admin.call('t', 'POST', '/corp/clients', { clientId: 'portal' });
  const [portal] = (await kc.admin.call<{ id: string }[]>('t', 'GET', '/corp/clients?clientId=portal')).body;
  for (const name of ['view', 'edit'])
    await kc.admin.call('t', 'POST', `/corp/clients/${portal?.id}/roles`, { name });
  kc.reset();
  return { kc, realm: () => kc.realms.get('corp') as Record<string, any>, portal: String(portal?.id) };
}

const sync = async (kc: ReturnType<typeof fakeKeycloakAdmin>, spec: Spec) =>
  (await syncRealm(kc.admin, resource(spec), {})).writes;

/** A role's composites as `realm/<name>` and `client/<clientId>/<name>`, sorted. */
async function composites(kc: ReturnType<typeof fakeKeycloakAdmin>, roleName: string) {
  const role = (await kc.admin.call<{ id: string }>('t', 'GET', `/corp/roles/${roleName}`)).body;
  const list = (await kc.admin.call<any[]>('t', 'GET', `/corp/roles-by-id/${role.id}/composites`)).body;
  const clients = (await kc.admin.call<any[]>('t', 'GET', '/corp/clients')).body;
  return list
    .map((r) =>
      r.clientRole
        ? `client/${clients.find((c) => c.id === r.containerId)?.clientId}/${r.name}`
        : `realm/${r.name}`,
    )
    .sort();
}

const withComposites: Spec = {
  roles: [
    { name: 'reader', attributes: { tier: ['1'] } },
    { name: 'writer' },
    {
      name: 'admin',
      attributes: { tier: ['3', 'top'] },
      composites: { realm: ['reader', 'writer'], client: { portal: ['view', 'edit'] } },
    },
  ],
};

test('composite roles (realm and client) and role attributes read back; a steady resync writes nothing', async () => {
  const { kc } = await world();
  const writes = await sync(kc, withComposites);
  assert.ok(
    writes.includes(
      'add composite of role admin realm/reader,realm/writer,client/portal/view,client/portal/edit',
    ),
    writes.join('; '),
  );
  assert.equal(await composites(kc, 'admin'), [
    'client/portal/edit',
    'client/portal/view',
    'realm/reader',
    'realm/writer',
  ]);
  const admin = kc.realms.get('corp')?.roles.find((r: any) => r.name === 'admin');
  assert.equal(admin?.attributes.tier, ['3', 'top']);
  kc.reset();
  assert.equal(await sync(kc, withComposites), []);
  assert.equal(kc.writes(), []);
  // Reads: the realm, the roles, the composite role's composites and its one client, nothing per plain role.
  assert.equal(kc.calls.length, 4, kc.calls.join('; '));
});

test('a composite added or removed by hand and a changed role attribute are reverted', async () => {
  const { kc, realm } = await world();
  await sync(kc, withComposites);
  const roles = realm().roles as any[];
  const id = (name: string) => roles.find((r) => r.name === name).id;
  const offline = id('offline_access');
  realm().compositeIds[id('admin')] = [id('reader'), offline];
  // A plain role made composite by hand: the operator's role is the spec's.
  realm().compositeIds[id('writer')] = [offline];
  roles.find((r) => r.name === 'reader').attributes.tier = ['9'];
  const writes = await sync(kc, withComposites);
  assert.ok(writes.includes('update realm role reader'), writes.join('; '));
  assert.equal(await composites(kc, 'admin'), [
    'client/portal/edit',
    'client/portal/view',
    'realm/reader',
    'realm/writer',
  ]);
  assert.equal(await composites(kc, 'writer'), []);
  assert.equal(roles.find((r) => r.name === 'reader').attributes.tier, ['1']);
});

test('removing composites and attributes from the spec takes them back', async () => {
  const { kc, realm } = await world();
  await sync(kc, withComposites);
  await sync(kc, { roles: [{ name: 'reader' }, { name: 'writer' }, { name: 'admin' }] });
  assert.equal(await composites(kc, 'admin'), []);
  const admin = (realm().roles as any[]).find((r) => r.name === 'admin');
  assert.equal(Object.keys(admin.attributes), [], 'no mark of its own: the record lists it');
  assert.ok(recorded(realm(), 'roles').has('admin'));
  kc.reset();
  assert.equal(await sync(kc, { roles: [{ name: 'reader' }, { name: 'writer' }, { name: 'admin' }] }), []);
});

test('a composite naming a client or a role that does not exist is InvalidSpec naming the field', async () => {
  const { kc } = await world();
  for (const [composite, message] of [
    [{ client: { nobody: ['x'] } }, /spec\.roles\[admin\]\.composites\.client names client "nobody"/],
    [{ realm: ['ghost'] }, /spec\.roles\[admin\]\.composites\.realm names realm role "ghost"/],
  ] as [Spec['defaultRoles'], RegExp][]) {
    try {
      await sync(kc, { roles: [{ name: 'admin', composites: composite }] });
      assert.unreachable('must refuse');
    } catch (error) {
      assert.is((error as { kind?: string }).kind, 'validation');
      assert.match((error as Error).message, message);
    }
  }
});

test("default roles: the spec's are added and taken back; Keycloak's own and hand-added defaults stay", async () => {
  const { kc, realm } = await world();
  const spec: Spec = {
    roles: [{ name: 'member' }],
    defaultRoles: { realm: ['member'], client: { portal: ['view'] } },
  };
  await sync(kc, spec);
  assert.equal(await composites(kc, 'default-roles-corp'), [
    'client/portal/view',
    'realm/member',
    'realm/offline_access',
  ]);
  assert.is(
    openRecord(realm()).attributes['realmforge.dev/managed-default-roles'],
    'client/portal/view,realm/member',
  );
  kc.reset();
  assert.equal(await sync(kc, spec), [], 'steady');
  // Removed by hand: put back. A default added by hand: kept.
  const roles = realm().roles as any[];
  const defaults = roles.find((r) => r.name === 'default-roles-corp').id;
  const portalEdit = realm().clients[0].roles.find((r: any) => r.name === 'edit').id;
  realm().compositeIds[defaults] = [roles.find((r) => r.name === 'offline_access').id, portalEdit];
  assert.equal(await sync(kc, spec), ['add default role realm/member,client/portal/view']);
  await sync(kc, { roles: [{ name: 'member' }] });
  assert.equal(await composites(kc, 'default-roles-corp'), ['client/portal/edit', 'realm/offline_access']);
  assert.is(openRecord(realm()).attributes['realmforge.dev/managed-default-roles'] ?? '', '');
  kc.reset();
  assert.equal(await sync(kc, { roles: [{ name: 'member' }] }), []);
});

const tree: Spec = {
  roles: [{ name: 'dev' }],
  groups: [
    { name: 'eng', attributes: { cost: ['42'] } },
    { name: 'backend', parent: '/eng', realmRoles: ['dev'], clientRoles: { portal: ['view'] } },
    { name: 'api', parent: '/eng/backend', attributes: { oncall: ['yes'] } },
    { name: 'frontend', parent: '/eng' },
  ],
};

/** The group at `path` in the fake's tree. */
function at(realm: Record<string, any>, path: string): any {
  let list = realm.groups;
  let found: any;
  for (const name of path.split('/').filter(Boolean)) {
    found = list.find((g: any) => g.name === name);
    list = found?.children ?? [];
  }
  return found;
}

test('subgroups at any depth with attributes, realm and client roles read back; a steady resync writes nothing', async () => {
  const { kc, realm, portal } = await world();
  const writes = await sync(kc, tree);
  assert.ok(writes.includes('create subgroup of /eng/backend api'), writes.join('; '));
  assert.equal(at(realm(), '/eng').attributes.cost, ['42']);
  assert.equal(at(realm(), '/eng/backend').realmRoles, ['dev']);
  assert.equal(at(realm(), '/eng/backend').clientRoleIds[portal], ['view']);
  assert.equal(at(realm(), '/eng/backend/api').attributes.oncall, ['yes']);
  assert.ok(at(realm(), '/eng/frontend'));
  kc.reset();
  assert.equal(await sync(kc, tree), []);
  assert.equal(kc.writes(), []);
  // The realm, roles, top-level groups, the children of /eng and /eng/backend: no read for a leaf, no client look-up.
  assert.equal(kc.calls.length, 5, kc.calls.join('; '));
});

test('a created realm gets its whole tree, composites and default roles in the first reconcile', async () => {
  const kc = fakeKeycloakAdmin();
  const spec: Spec = {
    roles: [{ name: 'dev' }, { name: 'lead', composites: { realm: ['dev'] } }],
    defaultRoles: { realm: ['dev'] },
    groups: tree.groups?.map(({ clientRoles: _, ...g }) => g),
  };
  const writes = await sync(kc, spec);
  assert.is(writes[0], 'create realm');
  const realm = kc.realms.get('corp') as Record<string, any>;
  assert.ok(at(realm, '/eng/backend/api'));
  assert.equal(at(realm, '/eng/backend').realmRoles, ['dev']);
  assert.equal(await composites(kc, 'lead'), ['realm/dev']);
  assert.equal(await composites(kc, 'default-roles-corp'), ['realm/dev', 'realm/offline_access']);
  kc.reset();
  assert.equal(await sync(kc, spec), []);
});

test('hand edits in the tree are reverted; hand-made subgroups and mappings stay; removed groups are deleted', async () => {
  const { kc, realm, portal } = await world();
  await sync(kc, tree);
  at(realm(), '/eng').attributes.cost = ['0'];
  at(realm(), '/eng/backend').clientRoleIds[portal] = ['edit'];
  await kc.admin.call('t', 'POST', `/corp/groups/${at(realm(), '/eng').id}/children`, { name: 'by-hand' });
  const writes = await sync(kc, tree);
  assert.equal(writes, [
    'update group eng',
    'add portal role mapping of group /eng/backend client/portal/view',
  ]);
  assert.equal(at(realm(), '/eng').attributes.cost, ['42']);
  assert.equal(
    at(realm(), '/eng/backend').clientRoleIds[portal].sort(),
    ['edit', 'view'],
    'hand-made mapping stays',
  );
  const trimmed: Spec = {
    roles: [{ name: 'dev' }],
    groups: [{ name: 'eng' }, { name: 'backend', parent: '/eng' }],
  };
  assert.equal(
    await sync(kc, trimmed),
    [
      'update group eng',
      'update subgroup of /eng backend',
      'delete subgroup of /eng frontend',
      'remove realm role mapping of group /eng/backend dev',
      'remove portal role mapping of group /eng/backend client/portal/view',
      'delete subgroup of /eng/backend api',
      'record realmforge.dev/managed-groups',
    ],
    'pruned',
  );
  assert.ok(at(realm(), '/eng/by-hand'), 'a hand-made subgroup stays');
  assert.equal(at(realm(), '/eng/backend').clientRoleIds[portal], ['edit']);
  assert.equal(
    at(realm(), '/eng/backend').realmRoles,
    [],
    'a mapping of a role that still exists is removed',
  );
  kc.reset();
  assert.equal(await sync(kc, trimmed), []);
});

test('more than ten subgroups are all seen (Keycloak pages children by 10)', async () => {
  const { kc, realm } = await world();
  const many: Spec = {
    groups: [{ name: 'all' }, ...Array.from({ length: 12 }, (_, i) => ({ name: `g${i}`, parent: '/all' }))],
  };
  await sync(kc, many);
  assert.is(at(realm(), '/all').children.length, 12);
  kc.reset();
  assert.equal(await sync(kc, many), []);
});

test('a subgroup whose parent is not declared is InvalidSpec naming it, before any write', async () => {
  const { kc } = await world();
  try {
    await sync(kc, { groups: [{ name: 'orphan', parent: '/nowhere' }] });
    assert.unreachable('must refuse');
  } catch (error) {
    assert.match(
      (error as Error).message,
      /spec\.groups\[\/nowhere\/orphan\]\.parent: "\/nowhere" is not a group declared/,
    );
  }
  assert.equal(kc.writes(), []);
});

test('the fake answers a role by name as Keycloak does: PUT changes it, DELETE removes it, POST is 405', async () => {
  const { kc, portal } = await world();
  const call = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', path: string, body?: unknown) =>
    kc.admin.call('t', method, path, body);
  await call('POST', '/corp/roles', { name: 'auditor' });
  await call('PUT', '/corp/roles/auditor', { name: 'auditor', description: 'reads logs' });
  assert.is(
    ((await call('GET', '/corp/roles/auditor')).body as { description: string }).description,
    'reads logs',
  );
  await call('PUT', `/corp/clients/${portal}/roles/view`, { name: 'view', description: 'sees' });
  const view = (await call('GET', `/corp/clients/${portal}/roles/view`)).body as { description: string };
  assert.is(view.description, 'sees');
  const refusal = (p: Promise<unknown>) =>
    p.then(
      () => 'answered',
      (e: Error) => e.message,
    );
  assert.match(await refusal(call('POST', '/corp/roles/auditor', {})), /HTTP 405/);
  await call('DELETE', '/corp/roles/auditor');
  assert.is((await call('GET', '/corp/roles/auditor')).status, 404);
});

test.run();
