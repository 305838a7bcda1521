// Observe-only realms: the realm's own sync runs with its writes recorded, so status.differences is exactly what
// Manage then sends; nothing reaches Keycloak, an absent realm is not created, deletion leaves the realm, and a
// hand-made realm is observed before adoption with its ownership marks not counted as differences.

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { KubeObject } from '../../../../src/operator/compile/kube-object.ts';
import { identityRealmController } from '../../../../src/operator/controllers/identity-realm/identity-realm.ts';
import { realmOwnerAttribute } from '../../../../src/operator/controllers/identity-realm/realm-ownership.ts';
import { openRecord } from '../../../../src/operator/keycloak/collections/record.ts';
import { recorded } from '../../keycloak/recorded.ts';
import { handMadeRealm, keycloakWorld, markDeleted, realmResource, type World } from '../keycloak-world.ts';

type Status = {
  phase?: string;
  reason?: string;
  differences?: { total: number; changes: string[]; partial?: boolean };
};
const reconcile = (w: World) => identityRealmController(w.deps)('identity/apps');
const statusOf = (w: World) => (w.kube.find('IdentityRealm', 'identity', 'apps')?.status ?? {}) as Status;
function setSpec(w: World, spec: Record<string, unknown>) {
  const o = w.kube.find('IdentityRealm', 'identity', 'apps') as KubeObject & { spec: object };
  w.kube.put({
    ...o,
    metadata: { ...o.metadata, generation: (o.metadata.generation ?? 1) + 1 },
    spec: { ...o.spec, ...spec },
  } as KubeObject);
}
const roles = { roles: [{ name: 'viewer', description: 'sees' }] };

test('Observe reports hand edits (fields and items) with zero writes; Manage reverts them', async () => {
  const w = keycloakWorld([realmResource('apps', 'identity', { displayName: 'Apps', ...roles })]);
  assert.is((await reconcile(w)).outcome?.phase, 'Ready');
  const realm = w.keycloak.realms.get('apps');
  if (realm) realm.displayName = 'Edited';
  const viewer = (await w.keycloak.admin.call<{ id: string }>('t', 'GET', '/apps/roles/viewer')).body;
  await w.keycloak.admin.call('t', 'PUT', `/apps/roles-by-id/${viewer.id}`, {
    ...viewer,
    description: 'changed by hand',
  });
  setSpec(w, { managementPolicy: 'Observe' });
  w.keycloak.reset();
  assert.is((await reconcile(w)).outcome?.reason, 'ObservedDifferences');
  assert.equal(w.keycloak.writes(), []);
  assert.is(w.keycloak.realms.get('apps')?.displayName, 'Edited');
  const { differences, phase } = statusOf(w);
  assert.is(phase, 'Pending');
  assert.is(differences?.total, 2, differences?.changes.join('\n'));
  assert.ok(differences?.changes.includes('update apps: displayName: "Edited" -> "Apps"'));
  assert.ok(
    differences?.changes.some((c) => c.includes('description: "changed by hand" -> "sees"')),
    differences?.changes.join('\n'),
  );

  setSpec(w, { managementPolicy: 'Manage' });
  assert.is((await reconcile(w)).outcome?.phase, 'Ready');
  assert.is(w.keycloak.realms.get('apps')?.displayName, 'Apps');
  assert.is(statusOf(w).differences, undefined);
});

test('an absent realm is not created under Observe; deleting an observed realm leaves it', async () => {
  const w = keycloakWorld([realmResource('apps', 'identity', { managementPolicy: 'Observe' })]);
  assert.is((await reconcile(w)).outcome?.reason, 'ObservedAbsent');
  assert.not.ok(w.keycloak.realms.has('apps'));
  assert.equal(w.keycloak.writes(), []);
  setSpec(w, { managementPolicy: 'Manage' });
  await reconcile(w);
  assert.ok(w.keycloak.realms.has('apps'), 'Manage creates it');
  setSpec(w, { managementPolicy: 'Observe' });
  await reconcile(w);
  markDeleted(w, 'IdentityRealm', 'identity', 'apps');
  w.keycloak.reset();
  await reconcile(w);
  assert.equal(w.keycloak.writes(), []);
  assert.ok(w.keycloak.realms.has('apps'), 'left in Keycloak');
  assert.is(w.kube.find('IdentityRealm', 'identity', 'apps'), undefined, 'finalizer released');
});

test('a hand-made realm: observed with adoptExisting (marks not counted), then adopted by Manage', async () => {
  const w = keycloakWorld([
    realmResource('apps', 'identity', {
      adoptExisting: true,
      managementPolicy: 'Observe',
      displayName: 'Apps',
    }),
  ]);
  await handMadeRealm(w, 'apps');
  await reconcile(w);
  assert.equal(w.keycloak.writes(), []);
  assert.equal(statusOf(w).differences?.changes, ['update apps: displayName: "Apps"']);
  assert.is(openRecord(w.keycloak.realms.get('apps'))?.attributes?.[realmOwnerAttribute], undefined);
  setSpec(w, { managementPolicy: 'Manage' });
  assert.is((await reconcile(w)).outcome?.phase, 'Ready');
  assert.is(openRecord(w.keycloak.realms.get('apps'))?.attributes?.[realmOwnerAttribute], 'identity/apps');
  assert.is(w.keycloak.realms.get('apps')?.displayName, 'Apps');
});

test('adopting a hand-made realm takes over its hand-made roles and groups the spec declares', async () => {
  const w = keycloakWorld([
    realmResource('apps', 'identity', {
      adoptExisting: true,
      roles: [{ name: 'viewer', description: 'Reads' }],
      groups: [{ name: 'staff' }],
    }),
  ]);
  await handMadeRealm(w, 'apps');
  await w.keycloak.admin.call('t', 'POST', '/apps/roles', { name: 'viewer', description: 'by hand' });
  await w.keycloak.admin.call('t', 'POST', '/apps/groups', { name: 'staff' });
  assert.is((await reconcile(w)).outcome?.phase, 'Ready', JSON.stringify(statusOf(w)));
  const viewer = (await w.keycloak.admin.call<Record<string, any>>('t', 'GET', '/apps/roles/viewer')).body;
  assert.is(viewer.description, 'Reads');
  assert.equal(viewer.attributes?.[realmOwnerAttribute], undefined, 'no mark of its own');
  const realm = w.keycloak.realms.get('apps');
  assert.equal([...recorded(realm, 'roles')], ['viewer'], 'adopted into the record');
  assert.equal([...recorded(realm, 'groups')], ['/staff']);
});

test.run();
