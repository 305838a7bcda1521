// The plans of the sections whose items carry the owner marker (roles, groups, client scopes, organizations,
// identity providers and their mappers): the ownership transitions of plan-table.ts, and each section's own
// comparisons, with no Keycloak at all.
import { test } from 'uvu';
import { clientScopeItem, clientScopes } from '../../../src/operator/keycloak/collections/client-scopes.ts';
import { attributeMarker, type Item } from '../../../src/operator/keycloak/collections/collection.ts';
import { configMarker } from '../../../src/operator/keycloak/collections/config-marker.ts';
import { childGroups, groupItem, groups } from '../../../src/operator/keycloak/collections/groups.ts';
import { identityProviderMappers } from '../../../src/operator/keycloak/collections/identity-provider-mappers.ts';
import { identityProviders } from '../../../src/operator/keycloak/collections/identity-providers.ts';
import { organizationItem, organizations } from '../../../src/operator/keycloak/collections/organizations.ts';
import { clientRoles, realmRoles, roleItem } from '../../../src/operator/keycloak/collections/roles.ts';
import { owner, planTable, type Section } from './plan-table.ts';

const listMarker = (o: string) => attributeMarker(o);
const ours = attributeMarker(owner);
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
  marker: listMarker,
});
const roleRows = (s: Section) => [
  {
    name: 'an attribute the spec drops is taken back',
    desired: [s.want('a')],
    live: [ours.mark({ ...s.have('a'), attributes: { team: ['x'] } })],
    expect: { update: ['a'] },
  },
  {
    name: 'no description and an empty one are the same',
    desired: [roleItem({ name: 'a' })],
    live: [ours.mark({ ...s.have('a'), description: '' })],
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
  marker: listMarker,
});
planTable(group(groups('apps')), [
  {
    name: 'the same realm roles in another order: in sync (the ledger is sorted)',
    desired: [groupItem({ name: 'a', realmRoles: ['writer', 'reader'] })],
    live: [ours.mark({ id: 'g', name: 'a', ...groupItem({ name: 'a', realmRoles: ['reader', 'writer'] }) })],
    expect: {},
  },
]);
planTable(group(childGroups('apps', 'parent-id', '/parent')));

const scopeMarker = (o: string) => attributeMarker(o, false);
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
  marker: scopeMarker,
};
planTable(scope, [
  {
    name: 'an attribute Keycloak keeps empty is no attribute',
    desired: [scope.want('a')],
    live: [
      scopeMarker(owner).mark({
        ...scope.have('a'),
        attributes: { 'include.in.token.scope': 'true', gone: '' },
      }),
    ],
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
    live: [scopeMarker(owner).mark(scope.have('a'))],
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
  marker: listMarker,
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
    expect: {},
  },
  {
    name: 'a domain verified by hand is an update back',
    desired: [organization.want('a')],
    live: [withDomains(true)],
    expect: { update: ['a'] },
  },
]);

const idpMarker = (o: string) => configMarker(o, false);
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
  marker: idpMarker,
});
const hidden = (s: Section): Item => idpMarker(owner).mark({ ...s.have('a'), hideOnLogin: true });
planTable(idp(26), [
  {
    name: 'hideOnLogin set by hand is taken back',
    desired: [idp(26).want('a')],
    live: [hidden(idp(26))],
    expect: { update: ['a'] },
  },
]);
planTable(idp(25), [
  {
    name: 'hideOnLogin is not compared before 26',
    desired: [idp(25).want('a')],
    live: [hidden(idp(25))],
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
  marker: idpMarker,
});

test.run();
