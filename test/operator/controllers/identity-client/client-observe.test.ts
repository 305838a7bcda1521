// Observe-only clients and client adoption: under managementPolicy Observe the client's own sync runs with its
// writes recorded, so status.differences is exactly what Manage then sends; nothing reaches Keycloak, deletion
// leaves the client; a hand-made client is taken over only with spec.adoptExisting.

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { KubeObject } from '../../../../src/operator/compile/kube-object.ts';
import { identityClientController } from '../../../../src/operator/controllers/identity-client/identity-client.ts';
import { identityRealmController } from '../../../../src/operator/controllers/identity-realm/identity-realm.ts';
import { ownerAttribute } from '../../../../src/operator/keycloak/collections/collection.ts';
import { openRecord } from '../../../../src/operator/keycloak/collections/record.ts';
import { recorded } from '../../keycloak/recorded.ts';
import { clientResource, keycloakWorld, markDeleted, realmResource, type World } from '../keycloak-world.ts';

type Status = {
  phase?: string;
  reason?: string;
  message?: string;
  differences?: { total: number; changes: string[]; partial?: boolean };
};
type Client = { id: string; clientId: string; description?: string; attributes?: Record<string, string> };

async function world(clients: KubeObject[]): Promise<World> {
  const w = keycloakWorld([
    realmResource('apps', 'identity', { clientAuthorizationGrants: ['team'] }),
    ...clients,
  ]);
  await identityRealmController(w.deps)('identity/apps');
  return w;
}
const reconcile = (w: World) => identityClientController(w.deps)('team/web');
const statusOf = (w: World) => (w.kube.find('IdentityClient', 'team', 'web')?.status ?? {}) as Status;
const live = (w: World) =>
  (w.keycloak.realms.get('apps')?.clients as Client[] | undefined)?.find((c) => c.clientId === 'web');
function setSpec(w: World, spec: Record<string, unknown>) {
  const o = w.kube.find('IdentityClient', 'team', 'web') as KubeObject & { spec: object };
  w.kube.put({
    ...o,
    metadata: { ...o.metadata, generation: (o.metadata.generation ?? 1) + 1 },
    spec: { ...o.spec, ...spec },
  } as KubeObject);
}

test('Observe reports a hand edit field by field and writes nothing; Manage then reverts it and clears the report', async () => {
  const w = await world([clientResource('web', 'team', { description: 'Web shop' })]);
  assert.is((await reconcile(w)).outcome?.phase, 'Ready');
  const client = live(w);
  if (client) client.description = 'edited by hand';
  setSpec(w, { managementPolicy: 'Observe' });
  w.keycloak.reset();
  const observed = await reconcile(w);
  assert.is(observed.outcome?.reason, 'ObservedDifferences');
  assert.equal(w.keycloak.writes(), []);
  assert.is(live(w)?.description, 'edited by hand');
  const { differences, message } = statusOf(w);
  assert.is(differences?.total, 1);
  assert.equal(differences?.changes, [
    'update apps/clients/web: description: "edited by hand" -> "Web shop"',
  ]);
  assert.match(message ?? '', 'set it to Manage');

  setSpec(w, { managementPolicy: 'Manage' });
  assert.is((await reconcile(w)).outcome?.phase, 'Ready');
  assert.is(live(w)?.description, 'Web shop');
  assert.is(statusOf(w).differences, undefined, 'the report goes with Observe');

  setSpec(w, { managementPolicy: 'Observe' });
  w.keycloak.reset();
  assert.is((await reconcile(w)).outcome?.reason, 'Observed');
  assert.is(statusOf(w).phase, 'Ready');
  assert.is(statusOf(w).differences?.total, 0);
});

test('deleting an observed client leaves it in Keycloak', async () => {
  const w = await world([clientResource('web', 'team')]);
  await reconcile(w);
  setSpec(w, { managementPolicy: 'Observe' });
  await reconcile(w);
  markDeleted(w, 'IdentityClient', 'team', 'web');
  w.keycloak.reset();
  await reconcile(w);
  assert.equal(w.keycloak.writes(), []);
  assert.ok(live(w), 'still in Keycloak');
  assert.is(w.kube.find('IdentityClient', 'team', 'web'), undefined, 'finalizer released');
});

test('a hand-made client: a conflict unless adopted; observed first, adopted by Manage with only its marks and changes', async () => {
  const w = await world([clientResource('web', 'team', { description: 'Web shop' })]);
  await w.keycloak.admin.call('t', 'POST', '/apps/clients', { clientId: 'web', description: 'old' });
  w.keycloak.reset();
  assert.is((await reconcile(w)).outcome?.reason, 'ClientIdConflict');
  assert.match(statusOf(w).message ?? '', 'spec.adoptExisting');
  assert.is(live(w)?.description, 'old', 'the create was refused (409) and nothing else sent');
  assert.equal(w.keycloak.writes(), ['POST /apps/clients']);

  setSpec(w, { adoptExisting: true, managementPolicy: 'Observe' });
  w.keycloak.reset();
  await reconcile(w);
  assert.equal(w.keycloak.writes(), []);
  const changes = statusOf(w).differences?.changes ?? [];
  assert.ok(
    changes.some((c) => c.includes('description: "old" -> "Web shop"')),
    changes.join('\n'),
  );
  setSpec(w, { managementPolicy: 'Manage' });
  assert.is((await reconcile(w)).outcome?.phase, 'Ready');
  assert.is(openRecord(live(w))?.attributes?.[ownerAttribute], 'team/web');
  assert.is(live(w)?.description, 'Web shop');
});

test('a role made by hand under a name the spec declares: a conflict unless adopted, then listed in the record, unwritten', async () => {
  const w = await world([clientResource('web', 'team')]);
  assert.is((await reconcile(w)).outcome?.phase, 'Ready');
  const id = live(w)?.id;
  await w.keycloak.admin.call('t', 'POST', `/apps/clients/${id}/roles`, { name: 'viewer' });
  setSpec(w, { roles: [{ name: 'viewer' }] });
  w.keycloak.reset();
  assert.is((await reconcile(w)).outcome?.reason, 'NameConflict');
  assert.equal(w.keycloak.writes(), [], 'nothing written');

  setSpec(w, { roles: [{ name: 'viewer' }], adoptExisting: true });
  w.keycloak.reset();
  assert.is((await reconcile(w)).outcome?.phase, 'Ready', statusOf(w).message);
  assert.equal(
    w.keycloak.writes().filter((x) => x !== `PUT /apps/clients/${id}`),
    [],
    'the role is not written: only the client, its record listing the role',
  );
  assert.equal([...recorded(live(w), 'roles')], ['viewer']);
});

test.run();
