// A server an earlier release made: the operator's realms get their identity and the master identity the creator's
// roles there, and only then does master's `admin` go; nothing is done for a master identity without `admin` or for
// a client the user gave; a failure before the end leaves `admin` in place for the next pass.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { RealmforgeError } from '../../../src/core/errors.ts';
import type { AdminClient } from '../../../src/operator/keycloak/admin-client.ts';
import {
  holdAdminForAdoption,
  reduceMasterIdentity,
} from '../../../src/operator/keycloak/master-reduction.ts';

const user = 'service-account-realmforge-operator';
/** The server's IdentityRealms: `old` only (`by-hand` has no mark, `theirs` is another server's). */
const owners = new Set(['team/old']);
const roles = [
  'manage-realm',
  'manage-users',
  'manage-clients',
  'manage-events',
  'manage-identity-providers',
  'manage-authorization',
  'view-realm',
].map((name) => ({ id: `r-${name}`, name }));

/** master with the operator's client (`mark`ed) whose user holds `admin` when `admin`; realms `old` (the operator's,
 * no identity yet) and `by-hand`. Writes are logged; `fail` makes that path answer 500. */
function keycloak(options: { admin: boolean; mark?: string; fail?: string }) {
  const writes: string[] = [];
  const reads: string[] = [];
  let oldClient: { id: string; attributes: Record<string, string> } | undefined;
  const client: AdminClient = {
    baseUrl: 'http://kc',
    async call<T>(_ns: string, method: string, path: string) {
      const ok = (body: unknown) => ({ status: 200, body: body as T });
      if (path === options.fail) throw new RealmforgeError('transient', `${method} ${path}: HTTP 500`);
      if (method !== 'GET') {
        writes.push(`${method} ${path}`);
        if (method === 'POST' && path === '/old/clients')
          oldClient = { id: 'c1', attributes: { 'realmforge.dev/owner': 'operator' } };
        return ok(undefined);
      }
      reads.push(path);
      if (path === `/master/users?username=${user}&exact=true`) {
        if (!options.admin) throw new RealmforgeError('auth', `GET ${path}: HTTP 403`);
        return ok([{ id: 'mu' }]);
      }
      if (path === '/master/users?username=realmforge-operator&exact=true')
        return ok([{ id: 'mu', firstName: 'realmforge', lastName: 'operator' }]);
      if (path === '/master/clients?clientId=realmforge-operator')
        return ok([{ id: 'op', attributes: options.mark ? { 'realmforge.dev/owner': options.mark } : {} }]);
      if (path === '/master/roles/admin') return ok({ id: 'a', name: 'admin' });
      if (path === '/master/users/mu/role-mappings/realm')
        return ok([
          { id: 'a', name: 'admin' },
          { id: 'c', name: 'create-realm' },
        ]);
      if (path === '')
        return ok([
          { realm: 'master' },
          { realm: 'old', attributes: { 'realmforge.dev/owner': 'team/old' } },
          { realm: 'by-hand' },
        ]);
      if (path === '/old/clients?clientId=realmforge-operator') return ok(oldClient ? [oldClient] : []);
      if (path === '/old/clients/c1/client-secret') return ok({ value: 's' });
      if (path === '/old/clients/c1/service-account-user') return ok({ id: 'u1' });
      if (path === '/old/clients?clientId=realm-management') return ok([{ id: 'rm' }]);
      if (path === '/master/clients?clientId=old-realm') return ok([{ id: 'or' }]);
      if (path.endsWith('/roles')) return ok(roles);
      if (path.includes('/role-mappings/clients/')) return ok(writes.includes(`POST ${path}`) ? roles : []);
      throw new Error(`unexpected GET ${path}`);
    },
  } as AdminClient;
  return { client, writes, reads };
}

test("the operator's realms get their identity, the master identity the creator's roles, and admin goes last", async () => {
  const kc = keycloak({ admin: true, mark: 'operator' });
  const done = await reduceMasterIdentity(kc.client, 'team', user, {
    owners,
    secretOf: (r: string) => `secret-of-${r}`,
  });
  assert.equal(kc.writes, [
    'POST /old/clients',
    'POST /old/users/u1/role-mappings/clients/rm',
    'POST /master/users/mu/role-mappings/clients/or',
    'DELETE /master/users/mu/role-mappings/realm',
  ]);
  assert.not.ok(
    kc.reads.some((p) => p.startsWith('/by-hand')),
    'a realm made by hand is not touched',
  );
  assert.match(done.join('; '), 'realm old: created client realmforge-operator');
  assert.match(done.at(-1) ?? '', "took master's role admin");
});

test("Keycloak 25: the operator's account (marked) holding admin is reduced the same way", async () => {
  const kc = keycloak({ admin: true });
  await reduceMasterIdentity(kc.client, 'team', 'realmforge-operator', { owners, secretOf: () => 's' });
  assert.is(kc.writes.at(-1), 'DELETE /master/users/mu/role-mappings/realm');
  assert.ok(kc.writes.includes('POST /old/clients'));
});

test('a master identity without admin (Keycloak answers 403), or a client the user gave, is left as it is', async () => {
  const reduced = keycloak({ admin: false, mark: 'operator' });
  assert.equal(await reduceMasterIdentity(reduced.client, 'team', user, { owners, secretOf: () => 's' }), []);
  assert.equal(reduced.reads, [`/master/users?username=${user}&exact=true`], 'one call');
  const given = keycloak({ admin: true });
  assert.equal(await reduceMasterIdentity(given.client, 'team', user, { owners, secretOf: () => 's' }), []);
  assert.equal(given.writes, []);
});

test('a failure half way leaves admin in place; the next pass completes without repeating what was done', async () => {
  const options: { admin: boolean; mark: string; fail?: string } = {
    admin: true,
    mark: 'operator',
    fail: '/master/clients?clientId=old-realm',
  };
  const kc = keycloak(options);
  await reduceMasterIdentity(kc.client, 'team', user, { owners, secretOf: () => 's' }).then(
    () => assert.unreachable(),
    (e: unknown) => assert.match((e as Error).message, 'HTTP 500'),
  );
  assert.equal(kc.writes, ['POST /old/clients', 'POST /old/users/u1/role-mappings/clients/rm'], 'admin kept');
  options.fail = undefined;
  await reduceMasterIdentity(kc.client, 'team', user, { owners, secretOf: () => 's' });
  assert.equal(kc.writes.slice(2), [
    'POST /master/users/mu/role-mappings/clients/or',
    'DELETE /master/users/mu/role-mappings/realm',
  ]);
});

test('a master identity just made beside realms an operator made holds admin until they are adopted', async () => {
  const kc = keycloak({ admin: true, mark: 'operator' });
  assert.ok(await holdAdminForAdoption(kc.client, 'team', user));
  assert.equal(kc.writes, ['POST /master/users/mu/role-mappings/realm']);
  const empty = keycloak({ admin: true, mark: 'operator' });
  const bare: AdminClient = {
    baseUrl: 'http://kc',
    call: async <T>(ns: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown) =>
      path === ''
        ? { status: 200, body: [{ realm: 'master' }] as T }
        : empty.client.call<T>(ns, method, path, body),
  };
  assert.not.ok(await holdAdminForAdoption(bare, 'team', user), 'a fresh Keycloak: nothing to adopt');
  assert.equal(empty.writes, []);
});

test.run();
