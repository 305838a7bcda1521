// Authorization services through the client sync, against the strict in-memory Keycloak: everything declared is
// created in dependency order, Keycloak's defaults go, a steady resync writes nothing, a hand change is reverted,
// what the spec drops is deleted (scopes after the resources using them), hand-made items stay, switching the
// section off removes the resource server, and bad references are refused naming the field before any write.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { IdentityClient } from '../../../../generated/types/crds/identityclient.ts';
import { compileRealm } from '../../../../src/operator/compile/realm-representation.ts';
import { syncClient } from '../../../../src/operator/controllers/identity-client/client-sync.ts';
import { identityClientController } from '../../../../src/operator/controllers/identity-client/identity-client.ts';
import { serverRefusals } from '../../../../src/operator/controllers/identity-client/server-checks.ts';
import { identityRealmController } from '../../../../src/operator/controllers/identity-realm/identity-realm.ts';
import { compactServerInfo } from '../../../../src/operator/keycloak/server-info.ts';
import { fakeKeycloakAdmin, serverInfo } from '../../keycloak/fake-keycloak-admin.ts';
import { clientResource, keycloakWorld, realmResource } from '../keycloak-world.ts';

type Authorization = NonNullable<IdentityClient['spec']['authorization']>;

const api = (authorization?: Authorization): IdentityClient => ({
  apiVersion: 'realmforge.dev/v1',
  kind: 'IdentityClient',
  metadata: { name: 'orders', namespace: 'team' },
  spec: {
    realmRef: { name: 'apps' },
    serviceAccount: { enabled: true },
    ...(authorization ? { authorization } : {}),
  },
});

const full: Authorization = {
  policyEnforcementMode: 'PERMISSIVE',
  scopes: [{ name: 'read' }, { name: 'write', displayName: 'Write' }],
  resources: [{ name: 'orders', type: 'urn:orders', uris: ['/orders/*', '/o/*'], scopes: ['write', 'read'] }],
  policies: [
    { name: 'readers', type: 'role', roles: [{ role: 'reader' }] },
    { name: 'bob', type: 'user', users: ['bob'] },
    { name: 'hours', type: 'time', time: { hour: 8, hourEnd: 18 } },
    { name: 'either', type: 'aggregate', policies: ['readers', 'bob'], decisionStrategy: 'AFFIRMATIVE' },
  ],
  permissions: [
    { name: 'read-orders', type: 'scope', resources: ['orders'], scopes: ['read'], policies: ['readers'] },
    { name: 'all-orders', type: 'resource', resources: ['orders'], policies: ['either'] },
  ],
};

async function setup() {
  const kc = fakeKeycloakAdmin();
  await kc.admin.call(
    'team',
    'POST',
    '',
    compileRealm({
      apiVersion: 'realmforge.dev/v1',
      kind: 'IdentityRealm',
      metadata: { name: 'apps', namespace: 'team' },
      spec: { serverRef: { name: 'kc' } },
    }),
  );
  const realm = kc.realms.get('apps');
  realm?.roles.push({ id: 'r-reader', name: 'reader', attributes: {} });
  realm?.users.push({ id: 'u-bob', username: 'bob', realmRoles: [], clientRoles: {} });
  return kc;
}

const authzOf = (kc: Awaited<ReturnType<typeof setup>>) =>
  kc.realms.get('apps')?.clients.find((c) => c.clientId === 'orders')?.authz;
const namesOf = (items: { name: string }[]) => items.map((i) => i.name).sort();

test('declared authorization is created (Keycloak defaults removed), summarised, and a steady resync writes nothing', async () => {
  const kc = await setup();
  const first = await syncClient(kc.admin, 'apps', api(full));
  assert.equal(first.authorization, { resources: 1, scopes: 2, policies: 4, permissions: 2 });
  const authz = authzOf(kc);
  assert.equal(namesOf(authz.scopes), ['read', 'write']);
  assert.equal(namesOf(authz.resources), ['orders'], 'Default Resource removed');
  assert.equal(
    namesOf(authz.policies),
    ['all-orders', 'bob', 'either', 'hours', 'read-orders', 'readers'],
    'Default Policy and Permission removed',
  );
  assert.is(authz.settings.policyEnforcementMode, 'PERMISSIVE');
  kc.reset();
  const again = await syncClient(kc.admin, 'apps', { ...api(full), status: { clientUuid: first.uuid } });
  assert.equal(again.writes, [], 'a steady resync writes nothing');
  assert.equal(kc.writes(), []);
});

test('a policy changed by hand is reverted; one removed from the spec is deleted; a hand-made one stays', async () => {
  const kc = await setup();
  await syncClient(kc.admin, 'apps', api(full));
  const authz = authzOf(kc);
  const readers = authz.policies.find((p: { name: string }) => p.name === 'readers');
  readers.logic = 'NEGATIVE';
  readers.typed.roles = [];
  authz.policies.push({
    id: 'hand',
    name: 'by-hand',
    type: 'user',
    logic: 'POSITIVE',
    decisionStrategy: 'UNANIMOUS',
    typed: { users: ['bob'] },
  });
  const fixed = await syncClient(kc.admin, 'apps', api(full));
  assert.equal(fixed.writes, ['update authorization policy readers']);
  assert.is(readers.logic, 'POSITIVE');
  assert.equal(readers.typed.roles, [{ id: 'reader', required: false }]);
  const fewer = { ...full, policies: full.policies?.filter((p) => p.name !== 'hours') };
  const pruned = await syncClient(kc.admin, 'apps', api(fewer));
  assert.equal(
    pruned.writes.filter((w) => w.includes('authorization')),
    ['delete authorization policy hours'],
  );
  assert.ok(
    authz.policies.some((p: { name: string }) => p.name === 'by-hand'),
    'hand-made policy untouched',
  );
  assert.equal((await syncClient(kc.admin, 'apps', api(fewer))).writes, []);
});

test('a scope dropped with the resource using it is deleted after the resource changes (Keycloak refuses otherwise)', async () => {
  const kc = await setup();
  await syncClient(kc.admin, 'apps', api(full));
  const smaller: Authorization = {
    ...full,
    scopes: [{ name: 'read' }],
    resources: [{ name: 'orders', type: 'urn:orders', uris: ['/orders/*', '/o/*'], scopes: ['read'] }],
  };
  const result = await syncClient(kc.admin, 'apps', api(smaller));
  assert.equal(
    result.writes.filter((w) => w.includes('authorization')),
    ['update authorization resource orders', 'delete authorization scope write'],
  );
  assert.equal(namesOf(authzOf(kc).scopes), ['read']);
});

test('the section removed switches authorization off (Keycloak drops the resource server); back on, it is rebuilt', async () => {
  const kc = await setup();
  await syncClient(kc.admin, 'apps', api(full));
  const off = await syncClient(kc.admin, 'apps', api());
  assert.match(off.writes.join(';'), /update client \(.*authorizationServicesEnabled/);
  assert.is(authzOf(kc), undefined);
  assert.is(off.authorization, undefined);
  await syncClient(kc.admin, 'apps', api(full));
  assert.equal(namesOf(authzOf(kc).resources), ['orders'], 'rebuilt, defaults removed again');
});

test('a policy naming a role or user the realm lacks is refused naming the field, before Keycloak is asked to write it', async () => {
  const kc = await setup();
  const bad: Authorization = { policies: [{ name: 'ghosts', type: 'role', roles: [{ role: 'ghost' }] }] };
  const error = await syncClient(kc.admin, 'apps', api(bad)).then(
    () => undefined,
    (e: Error) => e,
  );
  assert.match(
    String(error?.message),
    /spec\.authorization\.policies\[ghosts\]\.roles: realm apps has no realm role "ghost"/,
  );
  assert.not.ok(
    kc.writes().some((w) => w.includes('/policy/role')),
    'no policy write',
  );
  const noUser: Authorization = { policies: [{ name: 'who', type: 'user', users: ['nobody'] }] };
  const e2 = await syncClient(kc.admin, 'apps', api(noUser)).then(
    () => undefined,
    (e: Error) => e,
  );
  assert.match(String(e2?.message), /policies\[who\]\.users: realm apps has no user "nobody"/);
});

test('server checks: undeclared names, a policy type the server lacks, and authorization off on the server', () => {
  const info = compactServerInfo(serverInfo);
  const dangling: Authorization = {
    resources: [{ name: 'r', scopes: ['nope'] }],
    policies: [{ name: 'agg', type: 'aggregate', policies: ['missing'] }],
    permissions: [{ name: 'p', type: 'resource', resources: ['r2'], policies: ['agg'] }],
  };
  assert.equal(serverRefusals(api(dangling), info), [
    'spec.authorization.resources[r].scopes: scope "nope" is not declared in spec.authorization.scopes; declare it there or fix the name',
    'spec.authorization.policies[agg].policies: policy "missing" is not declared in spec.authorization.policies; declare it there or fix the name',
    'spec.authorization.permissions[p].resources: resource "r2" is not declared in spec.authorization.resources; declare it there or fix the name',
  ]);
  const noRegex = compactServerInfo({
    ...serverInfo,
    providers: { ...serverInfo.providers, policy: { providers: { role: {}, resource: {} } } },
  });
  const regex: Authorization = {
    policies: [{ name: 'rx', type: 'regex', regex: { targetClaim: 'sub', pattern: '.*' } }],
  };
  assert.equal(serverRefusals(api(regex), noRegex), [
    'spec.authorization.policies[rx].type: Keycloak 26.7.3 has no policy provider "regex" (its policy providers: resource, role)',
  ]);
  const off = compactServerInfo({ ...serverInfo, features: [{ name: 'AUTHORIZATION', enabled: false }] });
  assert.match(
    serverRefusals(api(regex), off).join(),
    /spec\.authorization: Keycloak 26\.7\.3 runs without the authorization feature/,
  );
});

test('status.authorization counts what the client holds as declared; it goes when the section does', async () => {
  const spec: Partial<IdentityClient['spec']> = {
    serviceAccount: { enabled: true },
    authorization: {
      scopes: [{ name: 'read' }],
      resources: [{ name: 'docs', scopes: ['read'] }],
      policies: [{ name: 'weekdays', type: 'time', time: { dayMonth: 1, dayMonthEnd: 31 } }],
      permissions: [{ name: 'read-docs', type: 'resource', resources: ['docs'], policies: ['weekdays'] }],
    },
  };
  const w = keycloakWorld([
    realmResource('apps', 'identity', { clientAuthorizationGrants: ['team'] }),
    clientResource('docs', 'team', spec),
  ]);
  await identityRealmController(w.deps)('identity/apps');
  const outcome = await identityClientController(w.deps)('team/docs');
  assert.is(outcome.outcome?.phase, 'Ready');
  const status = () => w.kube.find('IdentityClient', 'team', 'docs')?.status as Record<string, unknown>;
  assert.equal(status().authorization, { resources: 1, scopes: 1, policies: 1, permissions: 1 });
  const c = w.kube.find('IdentityClient', 'team', 'docs');
  if (!c) throw new Error('no client');
  w.kube.put({ ...c, spec: { ...(c.spec as object), authorization: undefined } });
  await identityClientController(w.deps)('team/docs');
  assert.is(status().authorization, undefined);
});

test.run();
