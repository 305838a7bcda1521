// The plans of the sections listed in their parent's record from the start, never marked one by one (protocol
// mappers, realm scope links, role mappings and composites, LDAP providers and mappers, flows, required actions,
// authorization objects): the ownership transitions of plan-table.ts, Keycloak's own items included, and
// each section's own comparisons, with no Keycloak at all.
import { test } from 'uvu';
import {
  permissionItem,
  policyItem,
  resourceItem,
  scopeItem,
} from '../../../src/operator/compile/client-authorization.ts';
import { userStorageType } from '../../../src/operator/compile/realm/user-federation.ts';
import { flowItem, topLevelFlows } from '../../../src/operator/keycloak/collections/authentication-flows.ts';
import {
  authzPermissions,
  authzPolicies,
  authzResources,
  authzScopes,
} from '../../../src/operator/keycloak/collections/authorization.ts';
import { realmScopeLinks } from '../../../src/operator/keycloak/collections/client-scopes.ts';
import type { Collection, Item } from '../../../src/operator/keycloak/collections/collection.ts';
import { ldapMappers, userStorageProviders } from '../../../src/operator/keycloak/collections/components.ts';
import { protocolMappers } from '../../../src/operator/keycloak/collections/protocol-mappers.ts';
import { requiredActions } from '../../../src/operator/keycloak/collections/required-actions.ts';
import { roleComposites } from '../../../src/operator/keycloak/collections/role-composites.ts';
import {
  groupClientRoles,
  groupRealmRoles,
  userClientRoles,
  userRealmRoles,
} from '../../../src/operator/keycloak/collections/role-mappings.ts';
import { planTable } from './plan-table.ts';

const text = (v: 0 | 1 = 0) => (v ? 'old' : 'new');
const withId = (k: string, item: Item): Item => ({ id: `id-${k}`, ...item });

const mapper = (k: string, v: 0 | 1 = 0) => ({
  name: k,
  protocol: 'openid-connect',
  protocolMapper: 'oidc-hardcoded-claim-mapper',
  config: { 'claim.name': 'team', 'claim.value': text(v) },
});
for (const parent of ['clients', 'client-scopes'] as const)
  planTable({
    name: `protocol mappers of ${parent}`,
    c: protocolMappers('apps', 'uuid', parent),
    want: mapper,
    have: (k, v) => withId(k, { ...mapper(k, v), consentRequired: false }),
  });

// Links and mappings are their key (v has nothing to differ on): added or removed, never updated.
const link = (c: Collection, have: (k: string) => Item = (k) => withId(k, { name: k })) =>
  planTable({ name: c.noun, c, want: (k) => ({ name: k }), have });
for (const kind of ['default', 'optional'] as const) link(realmScopeLinks('apps', kind, []));
const role = (clientRole: boolean) => (k: string) =>
  withId(k, { name: k, composite: false, clientRole, containerId: clientRole ? 'web-uuid' : 'realm-id' });
link(groupRealmRoles('apps', 'gid', '/staff'), role(false));
link(groupClientRoles('apps', 'gid', '/staff', 'web', 'web-uuid'), role(true));
link(userClientRoles('apps', 'uid', 'web', 'web-uuid'), role(true));
const serviceAccount = userRealmRoles('apps', 'uid');
planTable({ name: serviceAccount.noun, c: serviceAccount, want: (k) => ({ name: k }), have: role(false) }, [
  {
    name: "Keycloak's default-roles mapping, never recorded, is left alone",
    desired: [{ name: 'reader' }],
    live: [role(false)('default-roles-apps'), role(false)('reader')],
    managed: ['realm/reader'],
    expect: {},
  },
]);

const composites = roleComposites(
  'apps',
  'role-id',
  { noun: 'composite of realm role admin', field: 'spec.roles[admin].composites' },
  new Map([['web', 'web-uuid']]),
);
const clientRef = (name: string, uuid: string) => ({ name, clientRole: true, containerId: uuid });
planTable(
  {
    name: composites.noun,
    c: composites,
    want: (k) => ({ name: k, clientRole: false }),
    have: (k) => withId(k, { name: k, clientRole: false, containerId: 'realm-id' }),
  },
  [
    {
      name: "a client role is keyed by its client's clientId",
      desired: [clientRef('view', 'web-uuid')],
      live: [withId('v', clientRef('view', 'web-uuid'))],
      managed: ['client/web/view'],
      expect: {},
    },
    {
      name: 'a client role of a client not looked up is left alone, unless recorded',
      desired: [],
      live: [withId('x', clientRef('x', 'other')), withId('y', clientRef('y', 'other'))],
      managed: ['client/#other/y'],
      expect: { delete: ['client/#other/y'] },
    },
  ],
);

const ldap = (k: string, v: 0 | 1 = 0) => ({
  name: k,
  providerId: 'ldap',
  providerType: userStorageType,
  parentId: 'realm-id',
  config: { connectionUrl: ['ldap://dir'], vendor: [text(v)] },
});
const providers = userStorageProviders('apps', 'realm-id', new Map());
planTable({ name: 'LDAP providers', c: providers, want: ldap, have: (k, v) => withId(k, ldap(k, v)) }, [
  {
    name: 'lastSync, written by Keycloak, is not compared',
    desired: [ldap('a')],
    live: [withId('a', { ...ldap('a'), config: { ...ldap('a').config, lastSync: ['1700000000'] } })],
    managed: ['a'],
    expect: {},
  },
]);
const ldapMapper = (k: string, v: 0 | 1 = 0) => ({
  name: k,
  providerId: 'user-attribute-ldap-mapper',
  providerType: 'org.keycloak.storage.ldap.mappers.LDAPStorageMapper',
  parentId: 'ldap-id',
  config: { 'ldap.attribute': [text(v)], 'user.model.attribute': [k] },
});
planTable({
  name: 'LDAP mappers',
  c: ldapMappers('apps', 'corp', 'ldap-id'),
  want: ldapMapper,
  have: (k, v) => withId(k, ldapMapper(k, v)),
});

const flow = (k: string, v: 0 | 1 = 0) => flowItem({ alias: k, description: text(v) });
planTable({
  name: 'authentication flows',
  c: topLevelFlows('apps'),
  want: flow,
  have: (k, v) => withId(k, { ...flow(k, v), authenticationExecutions: [] }),
});

// The sync declares every alias it manages (the spec's, and those going back to their settings from before).
const action = (k: string, v: 0 | 1 = 0) => ({
  alias: k,
  name: k,
  providerId: k,
  enabled: true,
  defaultAction: v === 1,
  priority: 10,
  config: {},
});
planTable({ name: 'required actions', c: requiredActions('apps'), want: action, have: action }, [
  {
    name: 'only enabled, defaultAction and priority are compared',
    desired: [action('a')],
    live: [{ ...action('a'), name: 'Renamed by Keycloak', config: { x: '1' } }],
    managed: ['a'],
    expect: {},
  },
]);

const authz = { realm: 'apps', client: 'uuid' };
const scope = (k: string, v: 0 | 1 = 0) => scopeItem({ name: k, displayName: text(v) });
planTable({
  name: 'authorization scopes',
  c: authzScopes(authz.realm, authz.client),
  want: scope,
  have: (k, v) => withId(k, scope(k, v)),
});
const resource = (k: string, v: 0 | 1 = 0) =>
  resourceItem({ name: k, displayName: text(v), uris: ['/b', '/a'], scopes: ['write', 'read'] });
const liveResource = (k: string, v: 0 | 1 = 0) => ({
  ...resource(k, v),
  _id: `id-${k}`,
  uris: ['/a', '/b'],
  scopes: [
    { id: 's1', name: 'read' },
    { id: 's2', name: 'write' },
  ],
  owner: { id: 'uuid', name: 'web' },
});
planTable(
  {
    name: 'authorization resources',
    c: authzResources(authz.realm, authz.client),
    want: resource,
    have: liveResource,
  },
  [
    {
      name: 'a scope removed by hand is an update back',
      desired: [resource('a')],
      live: [{ ...liveResource('a'), scopes: [{ id: 's1', name: 'read' }] }],
      managed: ['a'],
      expect: { update: ['a'] },
    },
  ],
);
const policy = (k: string, v: 0 | 1 = 0) =>
  policyItem({ name: k, type: 'client', description: text(v), clients: ['b', 'a'] });
// Read in Keycloak's export form: the config as JSON strings, other keys of Keycloak's own.
const exported = (item: Item, config: Item): Item => {
  const { send: _, ...rest } = item;
  return withId(String(item.name), { ...rest, config });
};
planTable(
  {
    name: 'authorization policies',
    c: authzPolicies(authz.realm, authz.client),
    want: policy,
    have: (k, v) => exported(policy(k, v), { clients: '["a","b"]' }),
  },
  [
    {
      name: 'a client added by hand is an update back',
      desired: [policy('a')],
      live: [exported(policy('a'), { clients: '["a","b","c"]' })],
      managed: ['a'],
      expect: { update: ['a'] },
    },
  ],
);
const permission = (k: string, v: 0 | 1 = 0) =>
  permissionItem({
    name: k,
    type: 'resource',
    description: text(v),
    resources: ['r'],
    policies: ['p'],
  });
planTable({
  name: 'authorization permissions',
  c: authzPermissions(authz.realm, authz.client),
  want: permission,
  have: (k, v) => exported(permission(k, v), { resources: '["r"]', applyPolicies: '["p"]' }),
});

test.run();
