// The importer is the compilers' inverse: compiling what it imports from a realm (or client) representation gives
// that representation back on every field the CRDs express (Keycloak's defaults filled in on both sides, the
// operator's own marks left out). Specs: every realm field (Keycloak 26 and 25), the production example, and
// clients of every type.
import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import type { IdentityClient } from '../../../../generated/types/crds/identityclient.ts';
import type { IdentityRealm } from '../../../../generated/types/crds/identityrealm.ts';
import {
  permissionItem,
  policyItem,
  resourceItem,
  resourceServerSettings,
  scopeItem,
} from '../../../../src/operator/compile/client-authorization.ts';
import { compileClient } from '../../../../src/operator/compile/client-representation.ts';
import { importRealm } from '../../../../src/operator/compile/import/import-realm.ts';
import { compileRealm } from '../../../../src/operator/compile/realm-representation.ts';
import { sameField } from '../../../../src/operator/keycloak/collections/managed-fields.ts';
import { realmFieldsFor } from '../../../../src/operator/keycloak/collections/realm-fields.ts';
import { everyRealmField } from '../../keycloak/realm-everything.ts';

const options = { namespace: 'apps', server: { name: 'kc' }, source: 'round-trip' };
const realmOf = (spec: Partial<IdentityRealm['spec']>): IdentityRealm => ({
  apiVersion: 'realmforge.dev/v1',
  kind: 'IdentityRealm',
  metadata: { name: 'shop', namespace: 'apps' },
  spec: { serverRef: { name: 'kc' }, ...spec },
});
const withoutMarks = (fields: Record<string, unknown>): Record<string, unknown> => {
  const attributes = Object.fromEntries(
    Object.entries((fields.attributes ?? {}) as Record<string, string>).filter(
      ([k]) => !k.startsWith('realmforge.dev/'),
    ),
  );
  return { ...fields, attributes };
};

/** The realm fields on which compile(import(compile(spec))) and compile(spec) disagree. */
function realmRoundTrip(spec: Partial<IdentityRealm['spec']>, version: string): string[] {
  const inputs = { smtpPassword: 'relay-password', keycloakVersion: version };
  const exported = withoutMarks(compileRealm(realmOf(spec), inputs) as Record<string, unknown>);
  const { realm } = importRealm({ ...exported, keycloakVersion: version }, options);
  const again = withoutMarks(compileRealm(realm, inputs) as Record<string, unknown>);
  const rules = realmFieldsFor(version);
  return [...new Set([...Object.keys(exported), ...Object.keys(again)])]
    .filter(
      (field) =>
        !sameField(
          field,
          exported[field] ?? rules.defaults[field],
          again[field] ?? rules.defaults[field],
          rules,
        ),
    )
    .map((field) => `${field}: ${JSON.stringify(exported[field])} -> ${JSON.stringify(again[field])}`);
}

for (const version of ['26.4.0', '25.0.6'])
  test(`every realm field survives the round trip (Keycloak ${version})`, () => {
    assert.equal(realmRoundTrip(everyRealmField, version), []);
  });

test('the production example survives the round trip', () => {
  const example = parse(readFileSync('examples/identityrealm-production.yaml', 'utf8')) as IdentityRealm;
  assert.equal(realmRoundTrip(example.spec, '26.4.0'), []);
});

const clientOf = (spec: Partial<IdentityClient['spec']>): IdentityClient => ({
  apiVersion: 'realmforge.dev/v1',
  kind: 'IdentityClient',
  metadata: { name: 'web', namespace: 'apps' },
  spec: { realmRef: { name: 'shop' }, ...spec },
});
const exampleClient = parse(readFileSync('examples/identityclient.yaml', 'utf8')) as IdentityClient;
const clients: [string, IdentityClient][] = [
  ['the example client', { ...exampleClient, metadata: { name: 'web', namespace: 'apps' } }],
  [
    'a public client',
    clientOf({
      type: 'public',
      redirectUris: ['https://spa.example/*'],
      webOrigins: ['+'],
      pkce: 'S256',
      directAccessGrants: true,
      fullScopeAllowed: false,
    }),
  ],
  ['a bearer-only client', clientOf({ type: 'bearer-only', description: 'An API', enabled: false })],
  [
    'a client-jwt client with every typed attribute',
    clientOf({
      authentication: {
        method: 'client-jwt',
        jwksUrl: 'https://web.example/jwks',
        signatureAlgorithm: 'ES256',
      },
      consent: { required: true, screenText: 'Web wants your profile' },
      deviceAuthorizationGrant: true,
      ciba: true,
      frontchannelLogout: { enabled: false, url: 'https://web.example/fc', sessionRequired: true },
      backchannelLogout: { url: 'https://web.example/bc', sessionRequired: false, revokeOfflineTokens: true },
      tokens: {
        accessTokenLifespan: 60,
        clientSessionIdleTimeout: 600,
        useRefreshTokens: false,
        idTokenSignatureAlgorithm: 'ES256',
      },
      defaultClientScopes: ['profile'],
      optionalClientScopes: [],
      attributes: { 'custom.setting': 'on' },
    }),
  ],
  [
    'a SAML client',
    clientOf({
      protocol: 'saml',
      saml: {
        assertionConsumerServiceUrl: 'https://sp.example/acs',
        nameIdFormat: 'email',
        signDocuments: true,
        forcePostBinding: false,
      },
      redirectUris: ['https://sp.example/*'],
    }),
  ],
];

for (const [what, client] of clients)
  test(`${what} survives the round trip`, () => {
    const exported = compileClient(client) as Record<string, unknown>;
    const {
      clients: [imported],
    } = importRealm({ realm: 'shop', clients: [exported] }, options);
    assert.ok(imported, 'one IdentityClient');
    const again = compileClient(imported as IdentityClient) as Record<string, unknown>;
    for (const field of new Set([...Object.keys(exported), ...Object.keys(again)])) {
      const [a, b] = [exported[field], again[field]];
      const sorted = (v: unknown) => (Array.isArray(v) ? [...v].map(String).sort() : v);
      assert.equal(sorted(b), sorted(a), `${what}: ${field}`);
    }
  });

test('authorization services survive the round trip (every policy type, resources, scopes, permissions)', () => {
  const authorization: NonNullable<IdentityClient['spec']['authorization']> = {
    policyEnforcementMode: 'PERMISSIVE',
    allowRemoteResourceManagement: true,
    scopes: [{ name: 'read' }, { name: 'write', displayName: 'Write' }],
    resources: [
      {
        name: 'orders',
        type: 'urn:shop:orders',
        uris: ['/orders/*'],
        scopes: ['read', 'write'],
        attributes: { owner: ['shop'] },
      },
    ],
    policies: [
      { name: 'buyers', type: 'role', roles: [{ role: 'buyer', required: true }], fetchRoles: true },
      {
        name: 'staff',
        type: 'group',
        groups: [{ path: '/staff', extendChildren: true }],
        groupsClaim: 'groups',
      },
      { name: 'web', type: 'client', clients: ['web'] },
      { name: 'alice', type: 'user', users: ['alice'], logic: 'NEGATIVE' },
      { name: 'office-hours', type: 'time', time: { hour: 8, hourEnd: 18 } },
      { name: 'scoped', type: 'client-scope', clientScopes: [{ scope: 'profile' }] },
      { name: 'by-claim', type: 'regex', regex: { targetClaim: 'dept', pattern: '^sales$' } },
      { name: 'both', type: 'aggregate', policies: ['buyers', 'staff'], decisionStrategy: 'AFFIRMATIVE' },
    ],
    permissions: [
      { name: 'orders', type: 'resource', resources: ['orders'], policies: ['buyers'] },
      {
        name: 'write-orders',
        type: 'scope',
        resources: ['orders'],
        scopes: ['write'],
        policies: ['staff'],
        decisionStrategy: 'CONSENSUS',
      },
    ],
  };
  const strip = ({ send: _, ...item }: Record<string, unknown>) => item;
  const settings = {
    ...resourceServerSettings(authorization),
    scopes: (authorization.scopes ?? []).map(scopeItem),
    resources: (authorization.resources ?? []).map(resourceItem),
    policies: [
      ...(authorization.policies ?? []).map(policyItem),
      ...(authorization.permissions ?? []).map(permissionItem),
    ].map(strip),
  };
  const client = {
    clientId: 'web',
    serviceAccountsEnabled: true,
    authorizationServicesEnabled: true,
    authorizationSettings: settings,
  };
  // Keycloak adds the client role uma_protection with authorization services and gives it to the client's service
  // account: neither is declared.
  const roles = {
    realm: [],
    client: { web: [{ name: 'uma_protection', composite: false, clientRole: true }] },
  };
  const users = [
    {
      username: 'service-account-web',
      serviceAccountClientId: 'web',
      clientRoles: { web: ['uma_protection'] },
    },
  ];
  const {
    clients: [imported],
    unexpressed,
  } = importRealm({ realm: 'shop', clients: [client], roles, users }, options);
  assert.equal(unexpressed, []);
  assert.equal(imported?.spec.authorization, authorization);
  assert.is(imported?.spec.roles, undefined);
  assert.equal(imported?.spec.serviceAccount, { enabled: true });
});

test("the operator's own identity client in a realm it made is bookkeeping: not imported, not reported", () => {
  const result = importRealm(
    {
      realm: 'shop',
      clients: [
        {
          clientId: 'realmforge-operator',
          serviceAccountsEnabled: true,
          attributes: { 'realmforge.dev/owner': 'operator' },
        },
        { clientId: 'web', redirectUris: ['https://web/*'] },
      ],
    },
    options,
  );
  assert.equal(
    result.clients.map((c) => c.spec.clientId ?? c.metadata.name),
    ['web'],
  );
  assert.not.ok(JSON.stringify(result.unexpressed).includes('realmforge-operator'));
});

test.run();
