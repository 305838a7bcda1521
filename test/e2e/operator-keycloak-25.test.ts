// The older supported line end to end: an IdentityServer with image tag 25.0.x (the process kubelet runs that
// distribution on Java 17) compiles with Keycloak 25's bootstrap admin variables, becomes Ready, and holds a realm
// and a client whose credentials Secret logs in; the realm sections (every realm field, the user profile, client
// policies) read back equal and a hand edit is reverted within a drift interval; organizations are refused; the
// operator's identity per realm holds as on 26 (helpers/realm-identity-tests.ts).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { IdentityRealm } from '../../generated/types/crds/identityrealm.ts';
import { eventually, type TestEnv } from '../../scripts/testenv/harness.ts';
import {
  getResource,
  identityServer,
  kubectlWait,
  waitStatus,
} from '../../scripts/testenv/identity-fixtures.ts';
import { keycloakVersions } from '../../scripts/testenv/versions.ts';
import { compileRealm } from '../../src/operator/compile/realm-representation.ts';
import { planFields } from '../../src/operator/keycloak/collections/managed-fields.ts';
import { realmFieldsFor } from '../../src/operator/keycloak/collections/realm-fields.ts';
import { sameEntry, userProfileAttributeItem } from '../../src/operator/keycloak/collections/user-profile.ts';
import { loadEndpointMap } from '../../src/operator/runtime/endpoint-map.ts';
import { everyRealmField } from '../operator/keycloak/realm-everything.ts';
import { keycloakAdmin } from './helpers/keycloak-admin.ts';
import { type OperatorSuite, operatorSuite } from './helpers/operator-suite.ts';
import { realmIdentityTests } from './helpers/realm-identity-tests.ts';

const version = keycloakVersions['25'].version;
let suite: OperatorSuite;
let env: TestEnv;
let ns: string;

test.before(async () => {
  suite = await operatorSuite('kc25');
  ({ env, ns } = suite);
});

test.after(() => suite?.close());

test(`an IdentityServer on Keycloak ${version} uses its bootstrap admin variables and becomes Ready`, async () => {
  const server = identityServer(ns, 'idp', 'pg');
  server.spec.image.tag = version;
  await env.apply(server as never);
  await kubectlWait(env, 'identityserver/idp', ns, 600);
  const status = (await getResource(env, 'identityservers', ns, 'idp')).status;
  assert.is(status.version, version);
  const deployment = await env.apps.readNamespacedDeployment({ namespace: ns, name: 'idp' });
  const names = (deployment.spec?.template.spec?.containers[0].env ?? []).map((e) => e.name);
  assert.ok(names.includes('KEYCLOAK_ADMIN') && names.includes('KEYCLOAK_ADMIN_PASSWORD'), names.join());
  assert.not.ok(names.includes('KC_BOOTSTRAP_ADMIN_USERNAME'), 'no Keycloak 26 variable on 25');
});

test(`a realm and a client on Keycloak ${version} become Ready and the credentials Secret logs in`, async () => {
  await env.apply({
    apiVersion: 'realmforge.dev/v1',
    kind: 'IdentityRealm',
    metadata: { name: 'apps', namespace: ns },
    spec: { serverRef: { name: 'idp' }, clientAuthorizationGrants: [ns] },
  } as never);
  await kubectlWait(env, 'identityrealm/apps', ns, 120);
  await env.apply({
    apiVersion: 'realmforge.dev/v1',
    kind: 'IdentityClient',
    metadata: { name: 'svc', namespace: ns },
    spec: { realmRef: { name: 'apps' }, serviceAccount: { enabled: true } },
  } as never);
  await kubectlWait(env, 'identityclient/svc', ns, 120);
  const secret = await env.core.readNamespacedSecret({ namespace: ns, name: 'svc-credentials' });
  const text = (k: string) => Buffer.from(secret.data?.[k] ?? '', 'base64').toString('utf8');
  const keycloakUrl = loadEndpointMap(env.state.endpointMapFile).resolve(`http://idp.${ns}.svc:8080`);
  const res = await fetch(`${keycloakUrl.replace(/\/$/, '')}/realms/apps/protocol/openid-connect/token`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: text('client-id'),
      client_secret: text('client-secret'),
    }),
  });
  assert.is(res.status, 200, await res.clone().text());
  assert.type(((await res.json()) as { access_token?: string }).access_token, 'string');
});

const badge = {
  name: 'badge',
  displayName: 'Badge',
  validations: { pattern: { pattern: '^[0-9]{4}$' } },
  permissions: { view: ['admin', 'user'] as ['admin', 'user'], edit: ['admin'] as ['admin'] },
  group: 'work',
};
const sectionsRealm = (name: string, spec: Partial<IdentityRealm['spec']>): IdentityRealm => ({
  apiVersion: 'realmforge.dev/v1',
  kind: 'IdentityRealm',
  metadata: { name, namespace: ns },
  spec: { serverRef: { name: 'idp' }, ...spec },
});

test(`the realm sections on Keycloak ${version} read back equal; a hand edit is reverted within a drift interval`, async () => {
  const sections = sectionsRealm('sections', {
    ...everyRealmField,
    userProfile: {
      unmanagedAttributePolicy: 'ADMIN_VIEW',
      attributes: [badge],
      groups: [{ name: 'work', displayHeader: 'Work' }],
    },
    clientPolicies: {
      profiles: [
        {
          name: 'pkce',
          executors: [{ executor: 'pkce-enforcer', configuration: { 'auto-configure': true } }],
        },
      ],
    },
  });
  await env.apply(sections as never);
  await kubectlWait(env, 'identityrealm/sections', ns, 120);
  const kc = keycloakAdmin(env, ns);
  const rules = realmFieldsFor(version);
  const { drift } = planFields(
    compileRealm(sections) as Record<string, unknown>,
    await kc('GET', '/sections'),
    rules,
  );
  assert.equal(
    drift.filter((d) => !d.includes('realmforge.dev/')),
    [],
    'every compiled field reads back equal',
  );
  const badgeOf = async () =>
    ((await kc('GET', '/sections/users/profile')).attributes as Record<string, unknown>[]).find(
      (a) => a.name === 'badge',
    ) ?? {};
  assert.ok(
    sameEntry('attribute', userProfileAttributeItem(badge), await badgeOf()),
    JSON.stringify(await badgeOf()),
  );
  const profiles = await kc('GET', '/sections/client-policies/profiles');
  assert.equal(
    profiles.profiles.map((p: { name: string }) => p.name),
    ['pkce'],
  );
  // By hand: a realm field and the profile's validation; the next drift pass puts both back.
  const live = await kc('GET', '/sections');
  await kc('PUT', '/sections', { ...live, failureFactor: 100 });
  const profile = await kc('GET', '/sections/users/profile');
  await kc('PUT', '/sections/users/profile', {
    ...profile,
    attributes: profile.attributes.map((a: { name: string }) =>
      a.name === 'badge' ? { ...a, validations: {} } : a,
    ),
  });
  await eventually('the realm field and the profile to be reverted', 20_000, async () => {
    const [r, b] = [await kc('GET', '/sections'), await badgeOf()];
    return r.failureFactor === 3 && sameEntry('attribute', userProfileAttributeItem(badge), b)
      ? true
      : undefined;
  });
});

test(`organizations on Keycloak ${version} are Failed/InvalidSpec saying they need 26; no realm is created`, async () => {
  await env.apply(
    sectionsRealm('orgs', { organizations: [{ name: 'acme', domains: [{ name: 'acme.test' }] }] }) as never,
  );
  const failed = await waitStatus(
    env,
    'identityrealms',
    ns,
    'orgs',
    60_000,
    (s) => s.phase === 'Failed',
    'to fail',
  );
  assert.is(failed.status.reason, 'InvalidSpec');
  assert.match(failed.status.message, /spec\.organizations needs Keycloak 26 or later/);
  assert.is(await keycloakAdmin(env, ns)('GET', '/orgs'), undefined, 'no realm created half-way');
});

// The operator's identity per realm on 25 (its master identity an account holding create-realm), as on 26.
realmIdentityTests(() => ({ suite }));

test.run();
