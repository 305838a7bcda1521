// The observing admin client: reads pass through, writes are recorded and never reach Keycloak, and an update
// names its changed fields against the last read of its path (a list read counts for its items), secrets without
// values and the operator's bookkeeping recognisable.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  bookkeeping,
  changedFields,
  observingAdmin,
  onlyBookkeeping,
  planLine,
} from '../../../src/operator/keycloak/observing-admin.ts';
import { fakeKeycloakAdmin } from './fake-keycloak-admin.ts';

test('changedFields: set, changed, removed, one level into maps, secrets without values', () => {
  const live = { id: 'x', displayName: 'Old', enabled: true, attributes: { a: '1', b: '2' }, smtpServer: {} };
  const body = {
    id: 'x',
    displayName: 'New',
    enabled: true,
    loginTheme: 'corp',
    attributes: { a: '1', b: '', 'realmforge.dev/owner': 'ns/r' },
    smtpServer: { host: 'mail', password: 'hunter2' },
  };
  assert.equal(changedFields(live, body), [
    { field: 'attributes.b', change: 'removed', from: '2', to: '' },
    { field: 'attributes.realmforge.dev/owner', change: 'set', from: undefined, to: 'ns/r' },
    { field: 'displayName', change: 'changed', from: 'Old', to: 'New' },
    { field: 'loginTheme', change: 'set', from: undefined, to: 'corp' },
    { field: 'smtpServer.host', change: 'set', from: undefined, to: 'mail' },
    { field: 'smtpServer.password', change: 'set' },
  ]);
  assert.ok(bookkeeping('attributes.realmforge.dev/owner'));
  const write = { method: 'PUT' as const, path: '/r', target: 'r', fields: changedFields(live, body) };
  assert.is(
    planLine(write),
    'update r: attributes.b: removed, displayName: "Old" -> "New", loginTheme: "corp", smtpServer.host: "mail", smtpServer.password: set',
  );
  assert.not.ok(onlyBookkeeping(write));
  const marks = { attributes: { 'realmforge.dev/owner': 'ns/r' } };
  assert.ok(onlyBookkeeping({ ...write, fields: changedFields({ attributes: {} }, marks) }));
  assert.not.ok(bookkeeping('attributes.b'));
  assert.equal(changedFields(live, { ...live }), [], 'nothing differs');
});

test('writes are recorded, not sent; updates name their fields against the last read', async () => {
  const keycloak = fakeKeycloakAdmin();
  await keycloak.admin.call('t', 'POST', '', { realm: 'apps', displayName: 'Apps' });
  await keycloak.admin.call('t', 'POST', '/apps/roles', { name: 'viewer', description: 'sees' });
  keycloak.reset();
  const observing = observingAdmin(keycloak.admin);
  const realm = (await observing.call<Record<string, unknown>>('t', 'GET', '/apps')).body;
  await observing.call('t', 'PUT', '/apps', { ...realm, displayName: 'Changed' });
  const roles = (await observing.call<{ id: string; name: string }[]>('t', 'GET', '/apps/roles')).body;
  const viewer = roles.find((r) => r.name === 'viewer');
  await observing.call('t', 'PUT', `/apps/roles/viewer`, { ...viewer, description: 'sees more' });
  await observing.call('t', 'DELETE', `/apps/roles/viewer`);
  const created = await observing.call('t', 'POST', '/apps/groups', { name: 'g' });
  assert.is(created.status, 201);
  assert.equal(keycloak.writes(), [], 'nothing reached Keycloak');
  assert.is(keycloak.realms.get('apps')?.displayName, 'Apps');
  assert.equal(observing.planned(), [
    {
      method: 'PUT',
      path: '/apps',
      target: 'apps',
      fields: [{ field: 'displayName', change: 'changed', from: 'Apps', to: 'Changed' }],
    },
    {
      method: 'PUT',
      path: '/apps/roles/viewer',
      target: 'apps/roles/viewer',
      fields: [{ field: 'description', change: 'changed', from: 'sees', to: 'sees more' }],
    },
    { method: 'DELETE', path: '/apps/roles/viewer', target: 'apps/roles/viewer' },
    { method: 'POST', path: '/apps/groups', target: 'apps/groups "g"' },
  ]);
  assert.equal(observing.planned().map(planLine), [
    'update apps: displayName: "Apps" -> "Changed"',
    'update apps/roles/viewer: description: "sees" -> "sees more"',
    'delete apps/roles/viewer',
    'create apps/groups "g"',
  ]);
});

test.run();
