// realmforge plan's core: the realm's and client's own syncs through the observing admin against the in-memory
// Keycloak: an unchanged resource plans nothing; a spec that changes three fields plans exactly those three; what
// the spec dropped is a delete; nothing is ever written; a realm of another owner or a missing realm resource is
// named, not planned.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { formatPlan, planResources } from '../../../src/operator/cli/plan.ts';
import type { KubeObject } from '../../../src/operator/compile/kube-object.ts';
import { identityClientController } from '../../../src/operator/controllers/identity-client/identity-client.ts';
import { identityRealmController } from '../../../src/operator/controllers/identity-realm/identity-realm.ts';
import { clientResource, keycloakWorld, realmResource, type World } from '../controllers/keycloak-world.ts';

const realmSpec = {
  displayName: 'Apps',
  clientAuthorizationGrants: ['team'],
  roles: [{ name: 'viewer' }, { name: 'editor' }],
};

async function applied(): Promise<World> {
  const w = keycloakWorld([realmResource('apps', 'identity', realmSpec), clientResource('web', 'team')]);
  await identityRealmController(w.deps)('identity/apps');
  assert.is((await identityClientController(w.deps)('team/web')).outcome?.phase, 'Ready');
  w.keycloak.reset();
  return w;
}
const plan = (w: World, objects: KubeObject[]) => planResources(w.keycloak.admin, objects, w.clock);

test('unchanged resources: no changes, nothing written', async () => {
  const w = await applied();
  const plans = await plan(w, [realmResource('apps', 'identity', realmSpec), clientResource('web', 'team')]);
  assert.equal(
    plans.map((p) => [p.resource, p.changes]),
    [
      ['IdentityRealm identity/apps', []],
      ['IdentityClient team/web', []],
    ],
  );
  assert.equal(w.keycloak.writes(), []);
  assert.match(formatPlan(plans), 'No changes: Keycloak matches these resources.');
});

test('three changed fields are exactly three; a dropped role is a delete; nothing is written', async () => {
  const w = await applied();
  const changed = {
    ...realmSpec,
    displayName: 'Apps (new)',
    login: { registrationAllowed: true },
    themes: { login: 'corp' },
    roles: [{ name: 'viewer' }],
  };
  const plans = await plan(w, [realmResource('apps', 'identity', changed)]);
  assert.equal(w.keycloak.writes(), []);
  const changes = plans[0]?.changes ?? [];
  assert.equal(changes, [
    'update apps: displayName: "Apps" -> "Apps (new)", loginTheme: "corp", registrationAllowed: false -> true',
    'delete apps/roles/editor',
  ]);
  const text = formatPlan(plans);
  assert.match(text, 'IdentityRealm identity/apps:\n  update apps: displayName');
  assert.match(text, 'Plan: 0 to create, 1 to update, 1 to delete.');
});

test('a realm of another owner, an absent realm and a client without its realm resource are named', async () => {
  const w = await applied();
  const plans = await plan(w, [
    realmResource('thief', 'identity', { realmName: 'apps' }),
    realmResource('fresh', 'identity'),
    clientResource('api', 'elsewhere', { realmRef: { name: 'other', namespace: 'x' } }),
  ]);
  assert.equal(
    plans.map((p) => [p.resource, p.changes, Boolean(p.conflict)]),
    [
      ['IdentityRealm identity/fresh', ['create realm fresh'], false],
      ['IdentityRealm identity/thief', [], true],
      ['IdentityClient elsewhere/api', [], true],
    ],
  );
  assert.match(plans[1]?.conflict ?? '', 'belongs to IdentityRealm identity/apps');
  assert.equal(w.keycloak.writes(), []);
});

test.run();
