// A new realm's identity providers with their mappers, organizations, client profiles and policies come with its
// create call (realm-create-sections.ts): against the strict in-memory Keycloak, whose import makes them through
// the checks of their endpoints, the sync sends the create and its read-back only, the realm's record lists every
// item, the client secret is the Secret's, and a resync reads each section and writes nothing. What the import
// cannot check goes through its step; a body Keycloak refuses names the fields it carried and leaves no realm.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { IdentityRealm } from '../../../generated/types/crds/identityrealm.ts';
import { syncRealm } from '../../../src/operator/controllers/identity-realm/realm-sync.ts';
import { readRecord } from '../../../src/operator/keycloak/collections/record.ts';
import { SpecRefusedError } from '../../../src/operator/keycloak/spec-refused.ts';
import { directory, ldap, idp as upstream } from '../controllers/identity-realm/federation-world.ts';
import { bodiesOf, fakeKeycloakAdmin } from './fake-keycloak-admin.ts';

type Spec = IdentityRealm['spec'];
const sections: Partial<Spec> = {
  identityProviders: [upstream],
  organizations: [{ name: 'acme', domains: [{ name: 'acme.test' }] }],
  clientPolicies: {
    profiles: [{ name: 'pkce', executors: [{ executor: 'pkce-enforcer', configuration: {} }] }],
    policies: [
      { name: 'all', conditions: [{ condition: 'any-client', configuration: {} }], profiles: ['pkce'] },
    ],
  },
};
const resource = (spec: Partial<Spec>): IdentityRealm => ({
  apiVersion: 'realmforge.dev/v1',
  kind: 'IdentityRealm',
  metadata: { name: 'apps', namespace: 'team' },
  spec: { serverRef: { name: 'kc' }, ...spec },
});
const inputs = {
  keycloakVersion: '26.7.3',
  keycloakMajor: 26,
  hashKey: 'server-key',
  federation: {
    identityProviders: new Map([['upstream', 'idp-secret']]),
    ldap: new Map([['corp-ldap', 'bind-pw']]),
  },
};
/** The calls about the sections this file is about. */
const sectionCalls = (calls: string[]) =>
  calls.filter((c) => /\/(identity-provider|organizations|client-policies)(\/|\?|$)/.test(c));

test('identity providers with mappers, organizations and client policies: the create POST and its read-back only; a resync writes nothing', async () => {
  const kc = fakeKeycloakAdmin();
  const { admin, bodies } = bodiesOf(kc, 'POST', '');
  const first = await syncRealm(admin, resource(sections), inputs);
  assert.equal(first.writes, ['create realm']);
  assert.equal(kc.calls, ['GET /apps', 'POST ', 'GET /apps']);
  const body = bodies[0] ?? {};
  assert.is(body.identityProviders[0].config.clientSecret, 'idp-secret', "the Secret's value, not the mask");
  assert.ok(
    body.identityProviders[0].config['realmforge.dev/secret-hash'],
    'its hash recorded as the step does',
  );
  assert.equal(body.identityProviderMappers, [
    {
      name: 'dept',
      identityProviderAlias: 'upstream',
      identityProviderMapper: 'oidc-user-attribute-idp-mapper',
      config: { claim: 'dept', 'user.attribute': 'department', syncMode: 'INHERIT' },
    },
  ]);
  const record = readRecord(body.attributes);
  assert.equal(
    [
      'managed-identity-providers',
      'managed-identity-provider-mappers',
      'managed-organizations',
      'client-profiles',
      'client-policies',
    ].map((k) => record?.items[k]),
    [['upstream'], ['upstream/dept'], ['acme'], ['pkce'], ['all']],
  );
  const fed = kc.federationOf('apps');
  assert.equal(
    [fed.identityProviders[0]?.config.clientSecret, fed.idpMappers.map((m) => m.name)],
    ['idp-secret', ['dept']],
  );
  const realm = kc.realms.get('apps') as Record<string, any>;
  assert.equal(
    [realm.organizations, realm.clientProfiles, realm.clientPolicies].map((l) => l.map((x: any) => x.name)),
    [['acme'], ['pkce'], ['all']],
  );
  kc.reset();
  const again = await syncRealm(kc.admin, resource(sections), inputs);
  // The resync read every section (a difference would have been seen) and wrote nothing.
  assert.is(sectionCalls(kc.calls).length, 5, kc.calls.join('\n'));
  assert.equal([again.writes, kc.writes()], [[], []]);
});

test('with LDAP besides: only its step calls after the create (its providers and mappers claimed by the create)', async () => {
  const kc = fakeKeycloakAdmin();
  kc.world.directories.push({ ...directory });
  const spec: Partial<Spec> = { ...sections, userFederation: { ldap: [ldap] } };
  const first = await syncRealm(kc.admin, resource(spec), inputs);
  assert.equal(first.writes, [
    'create realm',
    'create user federation provider corp-ldap',
    'create LDAP mapper (corp-ldap) groups',
  ]);
  assert.equal(sectionCalls(kc.calls), []);
  assert.equal(
    kc.calls.map((c) => c.replace(/\?.*/, '')),
    [
      'GET /apps',
      'POST ',
      'GET /apps',
      'GET /apps/components',
      'POST /apps/components',
      'GET /apps/components',
      'GET /apps/components',
      'POST /apps/components',
    ],
  );
  kc.reset();
  assert.equal((await syncRealm(kc.admin, resource(spec), inputs)).writes, []);
  assert.equal(kc.writes(), []);
});

test('an identity provider binding a flow made after the create goes through its step', async () => {
  const kc = fakeKeycloakAdmin();
  const { admin, bodies } = bodiesOf(kc, 'POST', '');
  const spec = {
    // Without Keycloak's own flows read (realm-template.ts) the declared flow is made after the create.
    authenticationFlows: [
      {
        alias: 'broker-first',
        executions: [{ authenticator: 'auth-cookie', requirement: 'REQUIRED' as const }],
      },
    ],
    identityProviders: [{ ...upstream, firstBrokerLoginFlowAlias: 'broker-first' }],
  };
  const first = await syncRealm(admin, resource(spec), inputs);
  assert.is(bodies[0]?.identityProviders, undefined);
  assert.ok(first.writes.includes('create identity provider upstream'), first.writes.join('; '));
  assert.is(kc.federationOf('apps').identityProviders[0]?.firstBrokerLoginFlowAlias, 'broker-first');
  kc.reset();
  assert.equal((await syncRealm(kc.admin, resource(spec), inputs)).writes, []);
});

test("a profile named like one of Keycloak's global profiles goes through its step, which names it", async () => {
  const kc = fakeKeycloakAdmin();
  const { admin, bodies } = bodiesOf(kc, 'POST', '');
  const spec = { clientPolicies: { profiles: [{ name: 'fapi-1-baseline', executors: [] }] } };
  const error = await syncRealm(admin, resource(spec), inputs).then(
    () => undefined,
    (e: Error) => e,
  );
  assert.is(bodies[0]?.clientProfiles, undefined);
  assert.match(
    String(error?.message),
    'spec.clientPolicies.profiles[fapi-1-baseline]: "fapi-1-baseline" is one of Keycloak\'s global profiles',
  );
});

test('a create Keycloak refuses names the sections it carried, and leaves no realm', async () => {
  const kc = fakeKeycloakAdmin();
  // Keycloak refuses an identity provider type it does not have (400); its import is one transaction.
  const spec = { ...sections, identityProviders: [{ ...upstream, providerId: 'no-such' as 'oidc' }] };
  const error = await syncRealm(kc.admin, resource(spec), inputs).then(
    () => undefined,
    (e: Error) => e,
  );
  assert.instance(error, SpecRefusedError);
  for (const field of ['spec.identityProviders', 'spec.organizations', 'spec.clientPolicies'])
    assert.match(String(error?.message), field);
  assert.match(String(error?.message), 'Invalid provider id');
  assert.is(kc.realms.size, 0);
  assert.equal(kc.calls, ['GET /apps', 'POST ']);
});

test.run();
