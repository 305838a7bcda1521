// Admin paths become templates for the request counter by path: realm names, ids, role names and query values
// never reach a label (one series per path shape, not per realm or client).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { adminPathTemplate } from '../../../src/operator/keycloak/admin-path.ts';

const cases: [string, string][] = [
  ['/realm-7', '/admin/realms/{realm}'],
  ['', '/admin/realms'],
  ['/realm-7/clients?clientId=app-1&max=2', '/admin/realms/{realm}/clients?clientId&max'],
  ['/realm-7/clients/3f2a-11/roles', '/admin/realms/{realm}/clients/{id}/roles'],
  [
    '/realm-7/clients/3f2a-11/service-account-user',
    '/admin/realms/{realm}/clients/{id}/service-account-user',
  ],
  ['/realm-7/users/u-1/role-mappings/realm', '/admin/realms/{realm}/users/{id}/role-mappings/realm'],
  [
    '/realm-7/users/u-1/role-mappings/clients/c-9',
    '/admin/realms/{realm}/users/{id}/role-mappings/clients/{id}',
  ],
  ['/master/roles/admin', '/admin/realms/{realm}/roles/{id}'],
  ['/realm-7/client-scopes', '/admin/realms/{realm}/client-scopes'],
  [
    '/realm-7/identity-provider/instances/corp/mappers',
    '/admin/realms/{realm}/identity-provider/instances/{id}/mappers',
  ],
  [
    '/realm-7/components?parent=abc&type=org.keycloak.storage.UserStorageProvider',
    '/admin/realms/{realm}/components?parent&type',
  ],
  ['../serverinfo', '/admin/serverinfo'],
  ['/realms/master/protocol/openid-connect/token', '/realms/{realm}/protocol/openid-connect/token'],
];

for (const [path, template] of cases)
  test(`${path || '(the realms list)'} -> ${template}`, () => {
    assert.is(adminPathTemplate(path), template);
  });

test.run();
