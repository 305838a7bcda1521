// Roles and groups in full against the real Keycloak (26 by default, 25 with REALMFORGE_KEYCLOAK=25), through the
// realm sync the operator runs: composite roles (realm and client), role and group attributes, default roles,
// subgroups at any depth and group client-role mappings read back equal; a steady resync writes nothing; hand
// edits are reverted; what the spec stops declaring is taken back while Keycloak's own defaults stay; and the
// settings act (a new user gets the default role, a member of a subgroup holds the composite's roles).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { IdentityRealm } from '../../generated/types/crds/identityrealm.ts';
import { realmAdmin, realmResource } from './helpers/realm-admin.ts';

let kc: Awaited<ReturnType<typeof realmAdmin>>;
type Rep = Record<string, any>;

test.before(async () => {
  kc = await realmAdmin();
});
test.after(async () => {
  await kc?.close(['teams', 'teams-one-call']);
});

const full: Partial<IdentityRealm['spec']> = {
  roles: [
    { name: 'viewer', attributes: { tier: ['1'] } },
    { name: 'editor' },
    {
      name: 'lead',
      description: 'leads a team',
      attributes: { tier: ['3', 'top'] },
      composites: { realm: ['viewer', 'editor'], client: { 'realm-management': ['view-users'] } },
    },
  ],
  defaultRoles: { realm: ['viewer'], client: { account: ['view-applications'] } },
  groups: [
    { name: 'eng', attributes: { cost: ['42'] } },
    {
      name: 'backend',
      parent: '/eng',
      realmRoles: ['lead'],
      clientRoles: { 'realm-management': ['view-clients'] },
    },
    { name: 'api', parent: '/eng/backend', attributes: { oncall: ['yes'] } },
  ],
};
const teams = realmResource('teams', full);

const names = (roles: Rep[], client?: string) =>
  roles.map((r) => (r.clientRole ? `${client ?? r.containerId}/${r.name}` : r.name)).sort();
const composites = async (role: string) => (await kc.get(`/teams/roles/${role}/composites`)) as Rep[];
const clientUuid = async (clientId: string) =>
  ((await kc.get(`/teams/clients?clientId=${clientId}`)) as Rep[])[0]?.id as string;
/** The group at `path`, read as the operator reads it (top level, then children). */
async function group(path: string): Promise<Rep | undefined> {
  let list = (await kc.get('/teams/groups?briefRepresentation=false&max=100')) as Rep[];
  let found: Rep | undefined;
  for (const name of path.split('/').filter(Boolean)) {
    found = list.find((g) => g.name === name);
    if (!found) return undefined;
    list = (await kc.get(`/teams/groups/${found.id}/children?briefRepresentation=false&max=100`)) as Rep[];
  }
  return found;
}
const clientNamed = async (roles: Rep[]) => {
  const [rm, account] = [await clientUuid('realm-management'), await clientUuid('account')];
  return names(roles)
    .map((n) => n.replace(rm, 'realm-management').replace(account, 'account'))
    .sort();
};

test('roles and groups in full read back equal; a steady resync writes nothing', async () => {
  const first = await kc.sync(teams);
  assert.is(first.writes[0], 'create realm', first.writes.join('; '));
  assert.equal(await clientNamed(await composites('lead')), [
    'editor',
    'realm-management/view-users',
    'viewer',
  ]);
  const lead = await kc.get('/teams/roles/lead');
  assert.equal([lead.description, lead.attributes?.tier], ['leads a team', ['3', 'top']]);
  const defaults = await clientNamed(await composites('default-roles-teams'));
  for (const role of ['viewer', 'account/view-applications', 'offline_access', 'uma_authorization'])
    assert.ok(defaults.includes(role), `${role} in ${defaults.join(', ')}`);
  assert.equal((await group('/eng'))?.attributes?.cost, ['42']);
  const backend = await group('/eng/backend');
  assert.equal(backend?.realmRoles, ['lead']);
  assert.equal(backend?.clientRoles?.['realm-management'], ['view-clients']);
  assert.equal((await group('/eng/backend/api'))?.attributes?.oncall, ['yes']);
  kc.counter.writes = 0;
  assert.equal((await kc.sync(teams)).writes, [], 'steady');
  assert.is(kc.counter.writes, 0);
});

test('with only references the import can check, the create call carries it all; a resync writes nothing', async () => {
  // Realm default roles only (a client's default role goes through the step): everything rides in the create.
  const oneCall = realmResource('teams-one-call', { ...full, defaultRoles: { realm: ['viewer'] } });
  kc.counter.writes = 0;
  assert.equal((await kc.sync(oneCall)).writes, ['create realm']);
  assert.is(kc.counter.writes, 1, 'one write: the create');
  const get = async (path: string) => (await kc.get(`/teams-one-call${path}`)) as Rep;
  const lead = (await get('/roles/lead/composites')) as Rep[];
  assert.equal(lead.map((r) => r.name).sort(), ['editor', 'view-users', 'viewer']);
  const defaults = ((await get('/roles/default-roles-teams-one-call/composites')) as Rep[]).map(
    (r) => r.name,
  );
  for (const role of ['viewer', 'offline_access', 'uma_authorization'])
    assert.ok(defaults.includes(role), `${role} in ${defaults.join(', ')}`);
  const [eng] = (await get('/groups?briefRepresentation=false&search=eng&exact=true')) as Rep[];
  const [backend] = (await get(`/groups/${eng?.id}/children?briefRepresentation=false`)) as Rep[];
  assert.equal(
    [backend?.name, backend?.realmRoles, backend?.clientRoles?.['realm-management']],
    ['backend', ['lead'], ['view-clients']],
  );
  kc.counter.writes = 0;
  assert.equal((await kc.sync(oneCall)).writes, [], 'steady');
  assert.is(kc.counter.writes, 0);
});

test('the settings act: a new user gets the default role, a subgroup member holds the composite', async () => {
  const created = await kc.admin.call('e2e', 'POST', '/teams/users', {
    username: 'bob',
    enabled: true,
    email: 'bob@example.test',
    firstName: 'Bob',
    lastName: 'Ray',
  });
  assert.is(created.status, 201);
  const [bob] = (await kc.get('/teams/users?username=bob&exact=true')) as Rep[];
  const effective = async () =>
    names((await kc.get(`/teams/users/${bob?.id}/role-mappings/realm/composite`)) as Rep[]);
  assert.ok((await effective()).includes('viewer'), 'the default role');
  assert.not.ok((await effective()).includes('editor'));
  await kc.admin.call('e2e', 'PUT', `/teams/users/${bob?.id}/groups/${(await group('/eng/backend'))?.id}`);
  assert.ok((await effective()).includes('editor'), "the group's composite role brings editor");
});

test('hand edits are reverted: composites, role and group attributes, default roles, group mappings', async () => {
  const lead = await kc.get('/teams/roles/lead');
  const editor = await kc.get('/teams/roles/editor');
  const offline = await kc.get('/teams/roles/offline_access');
  await kc.admin.call('e2e', 'DELETE', `/teams/roles-by-id/${lead.id}/composites`, [editor]);
  await kc.admin.call('e2e', 'POST', `/teams/roles-by-id/${lead.id}/composites`, [offline]);
  await kc.admin.call('e2e', 'PUT', `/teams/roles-by-id/${lead.id}`, {
    ...lead,
    attributes: { ...lead.attributes, tier: ['0'] },
  });
  const viewer = await kc.get('/teams/roles/viewer');
  const defaultsId = (await kc.get('/teams')).defaultRole.id;
  await kc.admin.call('e2e', 'DELETE', `/teams/roles-by-id/${defaultsId}/composites`, [viewer]);
  const eng = await group('/eng');
  await kc.admin.call('e2e', 'PUT', `/teams/groups/${eng?.id}`, {
    ...eng,
    attributes: { ...eng?.attributes, cost: ['0'] },
  });
  const backend = await group('/eng/backend');
  await kc.admin.call('e2e', 'DELETE', `/teams/groups/${backend?.id}/role-mappings/realm`, [lead]);
  const result = await kc.sync(teams);
  for (const w of [
    'update realm role lead',
    'add composite of role lead realm/editor',
    'remove composite of role lead realm/offline_access',
    'add default role realm/viewer',
    'update group eng',
    'add realm role mapping of group /eng/backend lead',
  ])
    assert.ok(result.writes.includes(w), `${w} in ${result.writes.join('; ')}`);
  assert.equal(await clientNamed(await composites('lead')), [
    'editor',
    'realm-management/view-users',
    'viewer',
  ]);
  assert.equal((await group('/eng'))?.attributes?.cost, ['42']);
  kc.counter.writes = 0;
  assert.equal((await kc.sync(teams)).writes, [], 'steady again');
  assert.is(kc.counter.writes, 0);
});

test("removed from the spec: taken back; Keycloak's own defaults and hand-made groups stay", async () => {
  const eng = await group('/eng');
  await kc.admin.call('e2e', 'POST', `/teams/groups/${eng?.id}/children`, { name: 'by-hand' });
  const trimmed = realmResource('teams', {
    roles: [{ name: 'viewer' }],
    groups: [{ name: 'eng' }],
  });
  const result = await kc.sync(trimmed);
  for (const w of ['delete realm role lead', 'delete realm role editor', 'delete subgroup of /eng backend'])
    assert.ok(result.writes.includes(w), `${w} in ${result.writes.join('; ')}`);
  const removed = result.writes.find((w) => w.startsWith('remove default role '));
  assert.equal(removed?.slice('remove default role '.length).split(',').sort(), [
    'client/account/view-applications',
    'realm/viewer',
  ]);
  const defaults = await clientNamed(await composites('default-roles-teams'));
  assert.not.ok(defaults.includes('viewer'));
  for (const role of ['offline_access', 'uma_authorization'])
    assert.ok(defaults.includes(role), `Keycloak's ${role} stays: ${defaults.join(', ')}`);
  assert.equal(Object.keys((await kc.get('/teams/roles/viewer')).attributes ?? {}), [], 'no mark of its own');
  assert.equal((await group('/eng'))?.attributes?.cost, undefined);
  assert.ok(await group('/eng/by-hand'), 'a hand-made subgroup stays');
  assert.is(await group('/eng/backend'), undefined);
  kc.counter.writes = 0;
  assert.equal((await kc.sync(trimmed)).writes, [], 'steady after pruning');
  assert.is(kc.counter.writes, 0);
});

test.run();
