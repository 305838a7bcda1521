// The client controller's branches against the in-memory cluster and Keycloak: deletion that never leaks, the
// cross-client role boundary, a client recreated with the secret its applications hold, and a revoked grant.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { identityClientController } from '../../../../src/operator/controllers/identity-client/identity-client.ts';
import { identityRealmController } from '../../../../src/operator/controllers/identity-realm/identity-realm.ts';
import { SecretAccessDeniedError, secretValue } from '../../../../src/operator/runtime/read-secret.ts';
import {
  clientResource,
  keycloakWorld,
  markDeleted,
  readyServer,
  realmResource,
  rejects,
  statusOf,
  type World,
} from '../keycloak-world.ts';

/** A world with realm identity/apps Ready in Keycloak (granting `grants`) and the given clients. */
async function withRealm(grants: string[], clients: ReturnType<typeof clientResource>[], realmSpec = {}) {
  const world = keycloakWorld([
    realmResource('apps', 'identity', { clientAuthorizationGrants: grants, ...realmSpec }),
    ...clients,
  ]);
  await identityRealmController(world.deps)('identity/apps');
  assert.is(statusOf(world, 'IdentityRealm', 'identity', 'apps').phase, 'Ready');
  return world;
}
const reconcile = (world: World, key: string) => identityClientController(world.deps)(key);
const clientsIn = (world: World) => world.keycloak.realms.get('apps')?.clients ?? [];

test('a client deleted while the server is not Ready is retried, and deleted once Keycloak is back', async () => {
  const world = await withRealm(['team'], [clientResource('web', 'team')]);
  assert.is((await reconcile(world, 'team/web')).outcome?.phase, 'Ready');
  markDeleted(world, 'IdentityClient', 'team', 'web');
  world.kube.put(readyServer({}, 'Provisioning'));
  await rejects(reconcile(world, 'team/web'), /not Ready/);
  assert.ok(world.kube.find('IdentityClient', 'team', 'web'), 'the finalizer is kept');
  world.kube.put(readyServer());
  world.keycloak.setDown(true);
  await rejects(reconcile(world, 'team/web'), /unreachable/);
  world.keycloak.setDown(false);
  await reconcile(world, 'team/web');
  assert.equal(clientsIn(world), [], 'the client is gone from Keycloak');
  assert.is(world.kube.find('IdentityClient', 'team', 'web'), undefined);
});

test('a client is deleted even while its realm resource is not Ready (the server is)', async () => {
  const world = await withRealm(['team'], [clientResource('web', 'team')]);
  await reconcile(world, 'team/web');
  const realm = world.kube.find('IdentityRealm', 'identity', 'apps');
  if (realm) realm.status = { ...(realm.status as object), phase: 'Provisioning' };
  markDeleted(world, 'IdentityClient', 'team', 'web');
  await reconcile(world, 'team/web');
  assert.equal(clientsIn(world), []);
});

test('a client whose realm is being deleted is released at once; past the give-up time CleanupAbandoned', async () => {
  const world = await withRealm(['team'], [clientResource('web', 'team'), clientResource('api', 'team')]);
  await reconcile(world, 'team/web');
  await reconcile(world, 'team/api');
  markDeleted(world, 'IdentityClient', 'team', 'web');
  world.keycloak.setDown(true);
  world.clock.advance(300_001);
  await reconcile(world, 'team/web');
  assert.is(world.kube.events.at(-1)?.reason, 'CleanupAbandoned');
  assert.match(world.kube.events.at(-1)?.message ?? '', 'client web from realm apps');
  markDeleted(world, 'IdentityRealm', 'identity', 'apps');
  markDeleted(world, 'IdentityClient', 'team', 'api');
  await reconcile(world, 'team/api');
  assert.is(world.kube.find('IdentityClient', 'team', 'api'), undefined);
});

test('realm-management roles are refused (RoleNotAuthorized, nothing created) unless the realm grants them', async () => {
  const serviceAccount = {
    enabled: true,
    clientRoles: [{ client: 'realm-management', roles: ['view-clients'] }],
  };
  const world = await withRealm(['team'], [clientResource('robot', 'team', { serviceAccount })]);
  const out = await reconcile(world, 'team/robot');
  assert.is(out.outcome?.reason, 'RoleNotAuthorized');
  const status = statusOf(world, 'IdentityClient', 'team', 'robot');
  assert.is(status.phase, 'Failed');
  assert.match(status.message ?? '', 'realm-management/view-clients');
  assert.match(status.message ?? '', 'crossClientRoleGrants');
  assert.equal(clientsIn(world), [], 'nothing created');
  assert.is(world.kube.find('Secret', 'team', 'robot-credentials'), undefined);

  const other = { namespaces: ['other'], client: 'realm-management', roles: ['*'] };
  const wrongNs = await withRealm(['team'], [clientResource('robot', 'team', { serviceAccount })], {
    crossClientRoleGrants: [
      other,
      { namespaces: ['team'], client: 'realm-management', roles: ['view-users'] },
    ],
  });
  assert.is((await reconcile(wrongNs, 'team/robot')).outcome?.reason, 'RoleNotAuthorized');
});

test('a client scope the realm lacks is InvalidSpec naming the field, and nothing is created; known ones are set by the create', async () => {
  const world = await withRealm(
    ['team'],
    [clientResource('web', 'team', { defaultClientScopes: ['profile', 'nope'] })],
  );
  await reconcile(world, 'team/web');
  const status = statusOf(world, 'IdentityClient', 'team', 'web');
  assert.is(status.phase, 'Failed');
  assert.is(status.reason, 'InvalidSpec');
  assert.match(status.message ?? '', 'spec.defaultClientScopes names client scope "nope"');
  assert.equal(clientsIn(world), [], 'nothing created');

  const good = await withRealm(
    ['team'],
    [clientResource('web', 'team', { defaultClientScopes: ['profile'], optionalClientScopes: ['phone'] })],
  );
  good.keycloak.reset();
  await reconcile(good, 'team/web');
  assert.equal(
    good.keycloak.calls.filter((c) => !c.includes('serverinfo')),
    ['GET /apps/client-scopes', 'POST /apps/clients'],
    'the scopes travel in the create: no scope writes after it',
  );
  assert.equal(clientsIn(good)[0]?.defaultClientScopes, ['profile']);
});

test('a service-account role the realm lacks is refused before any Keycloak write', async () => {
  const world = await withRealm(
    ['team'],
    [
      clientResource('robot', 'team', {
        serviceAccount: { enabled: true, realmRoles: ['reader', 'nope'] },
      }),
    ],
    { roles: [{ name: 'reader' }] },
  );
  world.keycloak.reset();
  await reconcile(world, 'team/robot');
  const status = statusOf(world, 'IdentityClient', 'team', 'robot');
  assert.is(status.phase, 'Failed');
  assert.is(status.reason, 'InvalidSpec');
  assert.match(status.message ?? '', 'spec.serviceAccount.realmRoles names realm role "nope"');
  // The roles were looked up, and nothing was written: no client, no Secret.
  assert.ok(world.keycloak.calls.includes('GET /apps/roles/nope'), world.keycloak.calls.join('; '));
  assert.equal(world.keycloak.writes(), []);
  assert.equal(clientsIn(world), []);
  assert.is(world.kube.find('Secret', 'team', 'robot-credentials'), undefined);
  // A client role of a client the realm lacks (granted to the namespace), too.
  const other = await withRealm(
    ['team'],
    [
      clientResource('robot', 'team', {
        serviceAccount: { enabled: true, clientRoles: [{ client: 'ghost', roles: ['x'] }] },
      }),
    ],
    { crossClientRoleGrants: [{ namespaces: ['team'], client: 'ghost', roles: ['x'] }] },
  );
  other.keycloak.reset();
  await reconcile(other, 'team/robot');
  assert.match(statusOf(other, 'IdentityClient', 'team', 'robot').message ?? '', 'names client "ghost"');
  assert.equal(other.keycloak.writes(), []);
});

test('the longest names: a 253-character client in a 63-character namespace is Ready, its Secret valid', async () => {
  const ns = `t${'e'.repeat(62)}`;
  const name = `r${'o'.repeat(252)}`;
  const world = await withRealm([ns], [clientResource(name, ns)]);
  await reconcile(world, `${ns}/${name}`);
  // The strict fake refuses an invalid Secret name or label value as the API server does.
  const status = statusOf(world, 'IdentityClient', ns, name);
  assert.is(status.phase, 'Ready', status.message);
  const secret = [...world.kube.objects.values()].find(
    (o) => o.kind === 'Secret' && o.metadata.namespace === ns,
  );
  assert.match(secret?.metadata.name ?? '', /^ro+-[0-9a-f]{8}-credentials$/);
  assert.is((status as { credentialsSecret?: string }).credentialsSecret, secret?.metadata.name);
  assert.equal(
    clientsIn(world).map((c) => c.clientId),
    [name],
  );
});

test('a create the spec cannot finish is undone: no half-made client stays in Keycloak', async () => {
  // The role exists when checked, then goes (a person deletes it) before the service account is given it.
  const world = await withRealm(
    ['team'],
    [clientResource('robot', 'team', { serviceAccount: { enabled: true, realmRoles: ['reader'] } })],
    { roles: [{ name: 'reader' }] },
  );
  const realm = world.keycloak.realms.get('apps');
  const forServer = world.deps.admins.forServer;
  world.deps.admins.forServer = async (server, options) => {
    const admin = await forServer(server, options);
    const call = (async (...args: Parameters<typeof admin.call>) => {
      const res = await admin.call(...args);
      if (args[1] === 'POST' && args[2] === '/apps/clients' && realm)
        realm.roles = realm.roles.filter((r) => r.name !== 'reader');
      return res;
    }) as typeof admin.call;
    return { ...admin, call } as typeof admin;
  };
  world.keycloak.reset();
  await reconcile(world, 'team/robot');
  assert.is(statusOf(world, 'IdentityClient', 'team', 'robot').reason, 'InvalidSpec');
  assert.ok(world.keycloak.writes().includes('POST /apps/clients'), 'the client was created');
  assert.equal(clientsIn(world), [], 'and deleted again');
});

test('a client deleted by hand in Keycloak is recreated with the secret its credentials Secret holds', async () => {
  const world = await withRealm(['team'], [clientResource('web', 'team')]);
  await reconcile(world, 'team/web');
  const secret = world.kube.find('Secret', 'team', 'web-credentials');
  const before = secretValue(secret, 'client-secret');
  assert.type(before, 'string');
  const realm = world.keycloak.realms.get('apps');
  if (realm) realm.clients = [];
  const out = await reconcile(world, 'team/web');
  assert.ok(out.outcome?.writes?.includes('create client'));
  assert.is(clientsIn(world)[0]?.secret, before, 'Keycloak has the old secret');
  assert.is(secretValue(world.kube.find('Secret', 'team', 'web-credentials'), 'client-secret'), before);
});

test('a revoked namespace grant disables the client and deletes its credentials Secret', async () => {
  const world = await withRealm(['team'], [clientResource('web', 'team')]);
  await reconcile(world, 'team/web');
  assert.ok(world.kube.find('Secret', 'team', 'web-credentials'));
  const realm = world.kube.find('IdentityRealm', 'identity', 'apps');
  if (realm) (realm.spec as { clientAuthorizationGrants: string[] }).clientAuthorizationGrants = [];
  const out = await reconcile(world, 'team/web');
  assert.is(out.outcome?.reason, 'NamespaceNotAuthorized');
  assert.equal(out.outcome?.writes, ['disable client', 'delete credentials Secret']);
  assert.is(world.kube.find('Secret', 'team', 'web-credentials'), undefined);
  assert.is(clientsIn(world)[0]?.enabled, false);
  assert.match(statusOf(world, 'IdentityClient', 'team', 'web').message ?? '', 'credentials Secret');
  const again = await reconcile(world, 'team/web');
  assert.equal(again.outcome?.writes, [], 'reported once, not rewritten');
});

test("no Secret access in the server's namespace (admin account): the client is Pending/SecretAccessDenied", async () => {
  const world = await withRealm(['team'], [clientResource('web', 'team')]);
  world.deps = {
    ...world.deps,
    admins: {
      forServer: () =>
        Promise.reject(
          new SecretAccessDeniedError('identity', 'cannot read Secret identity/kc-admin-credentials'),
        ),
    },
  };
  const out = await reconcile(world, 'team/web');
  assert.is(out.outcome?.reason, 'SecretAccessDenied');
  assert.is(statusOf(world, 'IdentityClient', 'team', 'web').phase, 'Pending');
});

test.run();
