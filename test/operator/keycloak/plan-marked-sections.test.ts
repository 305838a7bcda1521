// The plans of the sections whose items an earlier version marked as its own (roles, groups, client scopes,
// organizations, identity providers and their mappers), now in the record like every other section: the ownership
// transitions of plan-table.ts (an earlier version's marks among them), and each section's own comparisons, with
// no Keycloak at all.
import { test } from 'uvu';
import { clientScopeItem, clientScopes } from '../../../src/operator/keycloak/collections/client-scopes.ts';
import {
  attributeMark,
  configMark,
  type Item,
  ownerAttribute,
} from '../../../src/operator/keycloak/collections/collection.ts';
import { childGroups, groupItem, groups } from '../../../src/operator/keycloak/collections/groups.ts';
import { identityProviderMappers } from '../../../src/operator/keycloak/collections/identity-provider-mappers.ts';
import { identityProviders } from '../../../src/operator/keycloak/collections/identity-providers.ts';
import { organizationItem, organizations } from '../../../src/operator/keycloak/collections/organizations.ts';
import { clientRoles, realmRoles, roleItem } from '../../../src/operator/keycloak/collections/roles.ts';
import { planTable, type Section } from './plan-table.ts';

/** An earlier version's mark: an attribute (a list for roles, groups and organizations, a string for client scopes)
 * or a config entry (identity providers and their mappers). */
const attrLegacy = (list: boolean): Section['legacy'] => ({
  mark: attributeMark,
  on: (o, item) => ({
    ...item,
    attributes: { ...(item.attributes as object), [ownerAttribute]: list ? [o] : o },
  }),
});
const listMarker = attrLegacy(true);
const idpMarker: Section['legacy'] = {
  mark: configMark,
  on: (o, item) => ({ ...item, config: { ...(item.config as object), [ownerAttribute]: o } }),
};
/** One of ours: the record lists it (the rows below say `managed`). */
const ours = { mark: (item: Item) => item };
const text = (v: 0 | 1 = 0) => (v ? 'old' : 'new');

const role = (c: Section['c']): Section => ({
  name: c.noun,
  c,
  want: (k, v) => roleItem({ name: k, description: text(v) }),
  have: (k, v) => ({
    id: `id-${k}`,
    name: k,
    description: text(v),
    composite: false,
    clientRole: false,
    attributes: {},
  }),
  legacy: listMarker,
});
const roleRows = (s: Section) => [
  {
    name: 'an attribute the spec drops is taken back',
    desired: [s.want('a')],
    live: [ours.mark({ ...s.have('a'), attributes: { team: ['x'] } })],
    managed: ['a'],
    expect: { update: ['a'] },
  },
  {
    name: 'no description and an empty one are the same',
    desired: [roleItem({ name: 'a' })],
    live: [ours.mark({ ...s.have('a'), description: '' })],
    managed: ['a'],
    expect: {},
  },
];
for (const c of [realmRoles('apps'), clientRoles('apps', 'client-uuid')])
  planTable(role(c), roleRows(role(c)));

const group = (c: Section['c']): Section => ({
  name: c.noun,
  c,
  want: (k, v) => groupItem({ name: k, realmRoles: v ? ['old'] : ['reader'] }),
  have: (k, v) => ({
    id: `id-${k}`,
    name: k,
    path: `/${k}`,
    subGroupCount: 0,
    ...groupItem({ name: k, realmRoles: v ? ['old'] : ['reader'] }),
  }),
  legacy: listMarker,
});
planTable(group(groups('apps')), [
  {
    name: 'the same realm roles in another order: in sync (the ledger is sorted)',
    desired: [groupItem({ name: 'a', realmRoles: ['writer', 'reader'] })],
    live: [ours.mark({ id: 'g', name: 'a', ...groupItem({ name: 'a', realmRoles: ['reader', 'writer'] }) })],
    managed: ['a'],
    expect: {},
  },
]);
planTable(group(childGroups('apps', 'parent-id', '/parent')));

const scope: Section = {
  name: 'client scopes',
  c: clientScopes('apps'),
  want: (k, v) =>
    clientScopeItem({ name: k, description: text(v), attributes: { 'include.in.token.scope': 'true' } }),
  have: (k, v) => ({
    id: `id-${k}`,
    name: k,
    protocol: 'openid-connect',
    description: text(v),
    attributes: { 'include.in.token.scope': 'true' },
    protocolMappers: [],
  }),
  legacy: attrLegacy(false),
};
planTable(scope, [
  {
    name: 'an attribute Keycloak keeps empty is no attribute',
    desired: [scope.want('a')],
    live: [
      ours.mark({
        ...scope.have('a'),
        attributes: { 'include.in.token.scope': 'true', gone: '' },
      }),
    ],
    managed: ['a'],
    expect: {},
  },
  {
    name: "a protocol mapper of the scope's changes its ledger: an update of the scope",
    desired: [
      clientScopeItem({
        name: 'a',
        description: 'new',
        attributes: { 'include.in.token.scope': 'true' },
        protocolMappers: [{ name: 'aud' }],
      }),
    ],
    live: [ours.mark(scope.have('a'))],
    managed: ['a'],
    expect: { update: ['a'] },
  },
]);

const domains = (k: string) => [{ name: `${k}.org` }, { name: `${k}.com`, verified: true }];
const organization: Section = {
  name: 'organizations',
  c: organizations('apps'),
  want: (k, v) => organizationItem({ name: k, description: text(v), domains: domains(k) }),
  have: (k, v) => ({
    id: `id-${k}`,
    name: k,
    alias: k,
    description: text(v),
    enabled: true,
    domains: domains(k).map((d) => ({ verified: false, ...d })),
    attributes: {},
  }),
  legacy: listMarker,
};
/** Ours, with its domains as Keycloak lists them (a.com first; a.org verified or not). */
const withDomains = (orgVerified: boolean) =>
  ours.mark({
    ...organization.have('a'),
    domains: [
      { name: 'a.com', verified: true },
      { name: 'a.org', verified: orgVerified },
    ],
  });
planTable(organization, [
  {
    name: 'domains in another order are the same set',
    desired: [organization.want('a')],
    live: [withDomains(false)],
    managed: ['a'],
    expect: {},
  },
  {
    name: 'a domain verified by hand is an update back',
    desired: [organization.want('a')],
    live: [withDomains(true)],
    managed: ['a'],
    expect: { update: ['a'] },
  },
]);

const idp = (major: number): Section => ({
  name: `identity providers (Keycloak ${major})`,
  c: identityProviders('apps', major, new Map()),
  want: (k, v) => ({ alias: k, providerId: 'oidc', displayName: text(v), config: { clientId: 'web' } }),
  have: (k, v) => ({
    alias: k,
    internalId: `id-${k}`,
    providerId: 'oidc',
    displayName: text(v),
    enabled: true,
    trustEmail: false,
    storeToken: false,
    linkOnly: false,
    hideOnLogin: false,
    firstBrokerLoginFlowAlias: '',
    postBrokerLoginFlowAlias: '',
    config: { clientId: 'web' },
  }),
  legacy: idpMarker,
});
const hidden = (s: Section): Item => ours.mark({ ...s.have('a'), hideOnLogin: true });
planTable(idp(26), [
  {
    name: 'hideOnLogin set by hand is taken back',
    desired: [idp(26).want('a')],
    live: [hidden(idp(26))],
    managed: ['a'],
    expect: { update: ['a'] },
  },
]);
planTable(idp(25), [
  {
    name: 'hideOnLogin is not compared before 26',
    desired: [idp(25).want('a')],
    live: [hidden(idp(25))],
    managed: ['a'],
    expect: {},
  },
]);

planTable({
  name: 'identity provider mappers',
  c: identityProviderMappers('apps', 'corp'),
  want: (k, v) => ({
    name: k,
    identityProviderMapper: 'hardcoded-attribute-idp-mapper',
    config: { attribute: 'dept', 'attribute.value': text(v) },
  }),
  have: (k, v) => ({
    id: `id-${k}`,
    name: k,
    identityProviderAlias: 'corp',
    identityProviderMapper: 'hardcoded-attribute-idp-mapper',
    config: { attribute: 'dept', 'attribute.value': text(v) },
  }),
  legacy: idpMarker,
});

test.run();
