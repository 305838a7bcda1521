// The operator's identity per realm: its secret derived from the server's key, the create body that carries it,
// which identity each admin call is sent with, and the bound on the realms' admin clients kept in memory.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { manualClock } from '../../../src/core/clock.ts';
import type { AdminClient } from '../../../src/operator/keycloak/admin-client.ts';
import {
  type AdminIdentity,
  TokenRealmAbsentError,
  TokenRealmClosedError,
  TokenRefusedError,
} from '../../../src/operator/keycloak/admin-identity.ts';
import {
  RealmIdentityRefusedError,
  realmIdentityRoles,
  realmIdentitySecret,
  withRealmIdentity,
} from '../../../src/operator/keycloak/realm-identity.ts';
import {
  closedRealmMs,
  lru,
  realmClientBound,
  realmOfCall,
  routedAdmin,
} from '../../../src/operator/keycloak/realm-routing.ts';

test('each realm secret is derived from the key and the realm name: stable, distinct, not the key', () => {
  const a = realmIdentitySecret('server-key', 'alpha');
  assert.is(a, realmIdentitySecret('server-key', 'alpha'), 'the same on every reconcile and every replica');
  assert.is.not(a, realmIdentitySecret('server-key', 'beta'), 'one realm knows nothing of another');
  assert.is.not(a, realmIdentitySecret('rotated-key', 'alpha'), 'a new key re-keys every realm');
  assert.ok(!a.includes('server-key'));
  assert.match(a, /^[A-Za-z0-9_-]{43}$/);
});

test('the create body carries the client and its service account with exactly the realm-management roles', () => {
  const body = withRealmIdentity({ realm: 'alpha', enabled: true, users: [{ username: 'kept' }] }, 's3cret');
  assert.is(body.realm, 'alpha');
  const [client] = body.clients as Record<string, any>[];
  assert.is(client?.clientId, 'realmforge-operator');
  assert.is(client?.secret, 's3cret');
  assert.is(client?.publicClient, false);
  assert.is(client?.serviceAccountsEnabled, true);
  assert.is(client?.standardFlowEnabled, false);
  assert.is(client?.directAccessGrantsEnabled, false);
  assert.is(client?.attributes['realmforge.dev/owner'], 'operator');
  assert.is(client?.attributes['access.token.lifespan'], '3600', 'one token serves an hour of resyncs');
  const users = body.users as Record<string, any>[];
  assert.equal(users[0], { username: 'kept' });
  assert.is(users[1]?.serviceAccountClientId, 'realmforge-operator');
  assert.equal(users[1]?.clientRoles, { 'realm-management': [...realmIdentityRoles] });
  assert.equal(realmIdentityRoles, [
    'manage-authorization',
    'manage-clients',
    'manage-events',
    'manage-identity-providers',
    'manage-realm',
    'manage-users',
  ]);
  assert.not.ok(JSON.stringify(body).includes('realm-admin'), 'never the composite of everything');
  assert.equal(withRealmIdentity({ realm: 'x' }, undefined), { realm: 'x' });
});

test('which identity sends a call: the realm for calls about it, master to create, delete and for the root', () => {
  const table: [string, string, string | undefined][] = [
    ['GET', '/alpha', 'alpha'],
    ['PUT', '/alpha', 'alpha'],
    ['GET', '/alpha/clients?clientId=web', 'alpha'],
    ['POST', '/my%20realm/roles', 'my realm'],
    ['DELETE', '/alpha/clients/1', 'alpha'],
    ['DELETE', '/alpha', undefined],
    ['POST', '', undefined],
    ['GET', '/master', undefined],
    ['GET', '/master/clients?clientId=x', undefined],
    ['GET', '../serverinfo', undefined],
  ];
  for (const [method, path, realm] of table) assert.is(realmOfCall(method, path), realm, `${method} ${path}`);
});

/** An admin client that answers with its own name, or throws `fail`. */
const named = (name: string, log: string[], fail?: Error): AdminClient => ({
  baseUrl: 'http://kc',
  async call(_ns, method, path) {
    log.push(`${name} ${method} ${path}`);
    if (fail) throw fail;
    return { status: 200, body: name as never };
  },
});

test('a routed admin sends each call with its identity; no realm is a 404, a refused identity is named', async () => {
  const log: string[] = [];
  const refused = new TokenRefusedError(
    { clientId: 'realmforge-operator', clientSecret: 'x', realm: 'gone' },
    'HTTP 401',
  );
  const fails: Record<string, Error> = {
    absent: new TokenRealmAbsentError('absent'),
    gone: refused,
    off: new TokenRealmClosedError('off', 'Realm not enabled'),
  };
  const admin = routedAdmin(named('master', log), (realm) => named(realm, log, fails[realm]));
  assert.is((await admin.call('ns', 'GET', '/alpha')).body, 'alpha');
  assert.is((await admin.call('ns', 'DELETE', '/alpha')).body, 'master');
  assert.is((await admin.call('ns', 'POST', '', { realm: 'beta' })).body, 'master');
  assert.is((await admin.call('ns', 'GET', '/absent')).status, 404);
  // A disabled realm issues no tokens, not even to the operator's client in it: the master identity manages it.
  assert.is((await admin.call('ns', 'PUT', '/off', { enabled: true })).body, 'master');
  try {
    await admin.call('ns', 'GET', '/gone/clients');
    assert.unreachable();
  } catch (e) {
    assert.instance(e, RealmIdentityRefusedError);
    assert.is((e as RealmIdentityRefusedError).reason, 'RealmIdentityRefused');
    assert.match((e as Error).message, 'realm gone');
  }
  assert.equal(log, [
    'alpha GET /alpha',
    'master DELETE /alpha',
    'master POST ',
    'absent GET /absent',
    'off PUT /off',
    'master PUT /off',
    'gone GET /gone/clients',
  ]);
});

test('a realm that issues no tokens goes to the master identity for five minutes before its own is tried again', async () => {
  const log: string[] = [];
  const clock = manualClock();
  let open = false;
  const admin = routedAdmin(
    named('master', log),
    (realm) => named(realm, log, open ? undefined : new TokenRealmClosedError(realm, 'HTTPS required')),
    clock,
  );
  for (let i = 0; i < 3; i++) assert.is((await admin.call('ns', 'GET', '/tls')).body, 'master');
  assert.equal(log, ['tls GET /tls', 'master GET /tls', 'master GET /tls', 'master GET /tls'], 'one refusal');
  open = true;
  clock.advance(closedRealmMs - 1);
  assert.is((await admin.call('ns', 'GET', '/tls')).body, 'master');
  clock.advance(1);
  assert.is(
    (await admin.call('ns', 'GET', '/tls')).body,
    'tls',
    'its own identity again once the realm opens',
  );
});

test('the realm clients kept are bounded: the least recently used goes first', () => {
  const made: string[] = [];
  const cache = lru<string>(3);
  const get = (k: string) =>
    cache.get(k, () => {
      made.push(k);
      return k;
    });
  for (const k of ['a', 'b', 'c', 'a', 'd']) get(k);
  assert.is(cache.size, 3);
  assert.ok(cache.has('a'), 'a was used again, so b went');
  assert.not.ok(cache.has('b'));
  get('b');
  assert.equal(made, ['a', 'b', 'c', 'd', 'b']);
  assert.is(realmClientBound, 1000);
});

test('at 1,001 realms a server keeps 1,000 realm clients and makes the first again when it is needed', async () => {
  const made: AdminIdentity[] = [];
  const clients = lru<AdminClient>(realmClientBound);
  const admin = routedAdmin(named('master', []), (realm) =>
    clients.get(realm, () => {
      made.push({ clientId: 'realmforge-operator', clientSecret: 's', realm });
      return named(realm, []);
    }),
  );
  for (let i = 0; i <= realmClientBound; i++) await admin.call('ns', 'GET', `/tenant-${i}`);
  assert.is(clients.size, realmClientBound);
  assert.is(made.length, realmClientBound + 1);
  await admin.call('ns', 'GET', '/tenant-1000');
  assert.is(made.length, realmClientBound + 1, 'a recent realm keeps its client (and token)');
  await admin.call('ns', 'GET', '/tenant-0');
  assert.is(made.length, realmClientBound + 2, 'the evicted one is made again');
});

test.run();
