// Keycloak's own sections of a new realm (realm-template.ts) are read once per server, not per realm: through the
// realm controller, two new realms declaring flows, required actions and scopes on one server make one scratch
// realm between them (deleted), and each realm is one create call with those sections in it. A server whose
// offered authenticators cannot be read gets its flows through their steps (Keycloak's 400 checks them there).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { KubeObject } from '../../../../src/operator/compile/kube-object.ts';
import { identityRealmController } from '../../../../src/operator/controllers/identity-realm/identity-realm.ts';
import type { AdminClient } from '../../../../src/operator/keycloak/admin-client.ts';
import { realmTemplate, scratchRealmPrefix } from '../../../../src/operator/keycloak/realm-template.ts';
import { keycloakWorld, readyServer, realmResource } from '../keycloak-world.ts';

const spec = {
  requiredActions: [{ alias: 'CONFIGURE_TOTP', defaultAction: true }],
  clientScopes: [{ name: 'orders.read' }],
  authenticationFlows: [
    { alias: 'browser-plus', executions: [{ authenticator: 'auth-cookie', requirement: 'ALTERNATIVE' }] },
  ],
} as const;

test('two new realms on one server: one scratch realm read between them, each realm one create carrying its flows', async () => {
  // A Keycloak version of this test's own: the template is kept per server and version.
  const server = readyServer();
  const world = keycloakWorld(
    [realmResource('one', 'identity', spec as never), realmResource('two', 'identity', spec as never)],
    { ...server, status: { ...(server.status as object), version: '26.0.7-template-test' } } as KubeObject,
  );
  // The bodies of realm creates, recorded on the fake's own client (the operator's admin clients are that one).
  const bodies: Record<string, any>[] = [];
  const call = world.keycloak.admin.call;
  world.keycloak.admin.call = ((ns, method, path, body, options) => {
    if (method === 'POST' && path === '') bodies.push(body as Record<string, any>);
    return call(ns, method, path, body, options);
  }) as typeof call;
  const reconcile = identityRealmController(world.deps);
  for (const name of ['one', 'two'])
    assert.is((await reconcile(`identity/${name}`)).outcome?.phase, 'Ready', name);
  const created = bodies.map((b) => String(b.realm));
  assert.is(created.filter((r) => r.startsWith(scratchRealmPrefix)).length, 1, created.join(', '));
  assert.equal(
    created.filter((r) => !r.startsWith(scratchRealmPrefix)),
    ['one', 'two'],
  );
  assert.equal([...world.keycloak.realms.keys()].sort(), ['one', 'two']);
  for (const body of bodies.slice(1)) {
    assert.ok(body.authenticationFlows.some((f: { alias: string }) => f.alias === 'browser-plus'));
    assert.ok(body.clientScopes.some((s: { name: string }) => s.name === 'orders.read'));
  }
  // Nothing about flows, actions or scopes after the creates.
  assert.equal(
    world.keycloak.calls.filter((c) => /\/(authentication|client-scopes)/.test(c)),
    [],
  );
});

test('a server info the operator may not read: no template, the flows go through their steps', async () => {
  const server = readyServer();
  const world = keycloakWorld([realmResource('one', 'identity', spec as never)], {
    ...server,
    status: { ...(server.status as object), version: '26.0.7-no-serverinfo' },
  } as KubeObject);
  const call = world.keycloak.admin.call;
  world.keycloak.admin.call = ((ns, method, path, body, options) =>
    path === '../serverinfo'
      ? Promise.resolve({ status: 403, body: { error: 'HTTP 403 Forbidden' } })
      : call(ns, method, path, body, options)) as typeof call;
  assert.is((await identityRealmController(world.deps)('identity/one')).outcome?.phase, 'Ready');
  assert.ok(
    !world.keycloak.calls.some((c) => c.includes(scratchRealmPrefix)),
    world.keycloak.calls.join('\n'),
  );
  assert.ok(world.keycloak.calls.includes('POST /one/authentication/flows'), world.keycloak.calls.join('\n'));
});

test('the template is handed out without waiting for the scratch realm to be deleted (Keycloak takes seconds)', async () => {
  const calls: string[] = [];
  let deleted: (() => void) | undefined;
  const master: AdminClient = {
    baseUrl: 'http://keycloak.template-delete.test',
    call: (async (_ns: string, method: string, path: string) => {
      calls.push(`${method} ${path.split('?')[0]}`);
      if (method === 'GET') return { status: 200, body: [] };
      if (method === 'POST' && path === '') return { status: 201, body: undefined };
      if (method === 'POST') return { status: 200, body: { requiredActions: [{ alias: 'CONFIGURE_TOTP' }] } };
      // The delete answers only when the test lets it.
      await new Promise<void>((resolve) => {
        deleted = resolve;
      });
      return { status: 204, body: undefined };
    }) as AdminClient['call'],
  };
  const warnings: string[] = [];
  const template = await realmTemplate(master, 'team', '26.0.7', (why) => warnings.push(why));
  assert.equal(template?.requiredActions, [{ alias: 'CONFIGURE_TOTP' }]);
  // Asked for, not answered yet.
  assert.ok(deleted, calls.join(', '));
  assert.match(calls.at(-1) as string, new RegExp(`^DELETE /${scratchRealmPrefix}`));
  deleted?.();
  assert.equal(warnings, []);
});

test('a scratch realm Keycloak does not delete is reported by name', async () => {
  const master: AdminClient = {
    baseUrl: 'http://keycloak.template-delete-refused.test',
    call: (async (_ns: string, method: string, path: string) => {
      if (method === 'DELETE') throw new Error('HTTP 500 boom');
      if (method === 'GET') return { status: 200, body: [] };
      return path === '' ? { status: 201, body: undefined } : { status: 200, body: {} };
    }) as AdminClient['call'],
  };
  const warnings: string[] = [];
  assert.ok(await realmTemplate(master, 'team', '26.0.7', (why) => warnings.push(why)));
  await new Promise((resolve) => setImmediate(resolve));
  assert.is(warnings.length, 1);
  assert.match(
    warnings[0] as string,
    new RegExp(`scratch realm ${scratchRealmPrefix}\\S+ \\(HTTP 500 boom\\): delete it by hand`),
  );
});

test.run();
