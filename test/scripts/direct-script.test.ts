// The direct script the tenants bench compares the operator with: its realm import carries Keycloak's own flows,
// required actions and client scopes beside the production example's (Keycloak's import of a realm that lists any
// of them keeps only those, so without Keycloak's own the script's realm would have no browser flow and no
// `profile` scope, and would cost Keycloak less than the realm the operator makes); and the benches' waits for
// Ready poll the watch's in-memory count often, so a time to Ready is not late by a 2 s poll.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Admin } from '../../scripts/bench/direct-admin.ts';
import { keycloakSections, productionRealm } from '../../scripts/bench/production-realm.ts';
import { readyPollMs, until } from '../../scripts/bench/until.ts';

// A fresh realm's partial export as Keycloak answers it (a few of its items).
const fresh = {
  authenticationFlows: [{ id: 'f1', alias: 'browser', builtIn: true, authenticationExecutions: [] }],
  authenticatorConfig: [],
  requiredActions: [
    { alias: 'CONFIGURE_TOTP', enabled: true, defaultAction: false, priority: 10 },
    { alias: 'TERMS_AND_CONDITIONS', enabled: false, defaultAction: false, priority: 20 },
  ],
  clientScopes: [{ id: 's1', name: 'profile', protocol: 'openid-connect' }],
  scopeMappings: [{ clientScope: 'offline_access', roles: ['offline_access'] }],
  defaultDefaultClientScopes: ['profile'],
  defaultOptionalClientScopes: [],
  browserFlow: 'browser',
};

test("the script's realm lists Keycloak's own flows, required actions and scopes beside the declared ones", async () => {
  const calls: string[] = [];
  const call: Admin = async (method, path) => {
    calls.push(`${method} ${path.split('?')[0]}`);
    return method === 'POST' && path.includes('partial-export') ? fresh : undefined;
  };
  const own = await keycloakSections(call);
  // The fresh realm is made, exported and deleted.
  assert.equal(calls, [
    'POST ',
    'POST /bench-keycloak-sections/partial-export',
    'DELETE /bench-keycloak-sections',
  ]);
  const body = productionRealm().direct('r', own) as Record<string, any>;
  const aliases = body.authenticationFlows.map((f: { alias: string }) => f.alias);
  assert.ok(aliases.includes('browser'), aliases.join(', '));
  assert.ok(aliases.includes('browser-payroll-otp'), aliases.join(', '));
  assert.equal(
    body.clientScopes.map((s: { name: string }) => s.name),
    ['profile', 'payroll.read'],
  );
  assert.ok(body.defaultDefaultClientScopes.includes('profile'));
  // The example's settings of Keycloak's actions.
  const totp = body.requiredActions.find((a: { alias: string }) => a.alias === 'CONFIGURE_TOTP');
  assert.is(totp.defaultAction, true);
  assert.ok(!JSON.stringify(body).includes('"id":"f1"'), 'the export ids are left out');
});

test('a wait for Ready polls the in-memory count every readyPollMs, not every 2 s', async () => {
  let n = 0;
  const started = performance.now();
  await until(
    'the count',
    3,
    async () => ++n,
    async () => {},
    readyPollMs,
  );
  assert.is(n, 3);
  // Two waits between three polls: well under one 2 s poll.
  assert.ok(performance.now() - started < 1500, `${performance.now() - started} ms`);
});

test.run();
