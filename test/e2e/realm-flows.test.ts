// Custom authentication flows against the real Keycloak (26 by default, 25 with REALMFORGE_KEYCLOAK=25), through
// the realm sync the operator runs: a custom direct-grant flow bound to the realm is the one Keycloak runs (a user
// with the role "blocked" is refused a password grant the built-in flow would allow); the flow reads back in
// order, a steady resync writes nothing, a hand edit is rebuilt, and removing it rebinds Keycloak's own flow and
// deletes it; an authenticator the server lacks is refused naming the field, with nothing written. A bound browser
// flow with OTP is replaced while a login loop runs (no login without the OTP, no valid one refused), and a crash
// after any write of a replacement leaves a complete flow bound.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { IdentityRealm } from '../../generated/types/crds/identityrealm.ts';
import { syncRealm } from '../../src/operator/controllers/identity-realm/realm-sync.ts';
import { compactServerInfo } from '../../src/operator/keycloak/server-info.ts';
import { killedAfter } from '../operator/keycloak/killed-admin.ts';
import {
  loginLoop,
  loginPair,
  otpPerson,
  otpRealmSpec,
  restarts,
  wrongOutcomes,
} from './helpers/otp-login.ts';
import { realmAdmin, realmResource } from './helpers/realm-admin.ts';

let kc: Awaited<ReturnType<typeof realmAdmin>>;
type Rep = Record<string, any>;

test.before(async () => {
  kc = await realmAdmin();
});
test.after(async () => {
  await kc?.close(['flows', 'otpflows']);
});

const base: Partial<IdentityRealm['spec']> = { login: { sslRequired: 'none' }, roles: [{ name: 'blocked' }] };
const strict = realmResource('flows', {
  ...base,
  authenticationFlows: [
    {
      alias: 'strict-grant',
      description: 'direct grant, refused to blocked users',
      executions: [
        { authenticator: 'direct-grant-validate-username', requirement: 'REQUIRED' },
        { authenticator: 'direct-grant-validate-password', requirement: 'REQUIRED' },
        { subFlow: 'blocked-users', requirement: 'CONDITIONAL' },
      ],
    },
    {
      alias: 'blocked-users',
      description: 'users with the role blocked',
      topLevel: false,
      executions: [
        {
          authenticator: 'conditional-user-role',
          requirement: 'REQUIRED',
          authenticatorConfig: { alias: 'is-blocked', config: { condUserRole: 'blocked', negate: 'false' } },
        },
        { authenticator: 'deny-access-authenticator', requirement: 'REQUIRED' },
      ],
    },
  ],
  authenticationFlowBindings: { directGrant: 'strict-grant' },
});
const password = 'correct-horse-battery-9';

async function grant() {
  const res = await fetch(`${kc.env.state.keycloak?.httpUrl}/realms/flows/protocol/openid-connect/token`, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'password', client_id: 'admin-cli', username: 'carl', password }),
  });
  return res.status;
}
async function outline(alias: string) {
  const list = (await kc.get(`/flows/authentication/flows/${alias}/executions`)) as Rep[];
  const lines: string[] = [];
  for (const e of list) {
    const config = e.authenticationConfig
      ? await kc.get(`/flows/authentication/config/${e.authenticationConfig}`)
      : undefined;
    const step = e.authenticationFlow ? e.displayName : e.providerId;
    lines.push(
      `${e.level}:${step}:${e.requirement}${config ? `:${config.alias}:${config.config?.condUserRole}` : ''}`,
    );
  }
  return lines;
}
const built = [
  '0:direct-grant-validate-username:REQUIRED',
  '0:direct-grant-validate-password:REQUIRED',
  '0:blocked-users:CONDITIONAL',
  '1:conditional-user-role:REQUIRED:is-blocked:blocked',
  '1:deny-access-authenticator:REQUIRED',
];

test('the built-in direct grant lets a blocked user in; the bound custom flow refuses them', async () => {
  await kc.sync(realmResource('flows', base));
  const created = await kc.admin.call('e2e', 'POST', '/flows/users', {
    username: 'carl',
    enabled: true,
    email: 'carl@example.test',
    firstName: 'Carl',
    lastName: 'Mo',
    credentials: [{ type: 'password', value: password, temporary: false }],
  });
  assert.is(created.status, 201);
  const [carl] = (await kc.get('/flows/users?username=carl&exact=true')) as Rep[];
  const blocked = await kc.get('/flows/roles/blocked');
  await kc.admin.call('e2e', 'POST', `/flows/users/${carl?.id}/role-mappings/realm`, [blocked]);
  assert.is(await grant(), 200, "Keycloak's own direct grant flow has no such check");
  const result = await kc.sync(strict);
  assert.ok(
    result.writes.includes('build authentication flow strict-grant (5 steps)'),
    result.writes.join('; '),
  );
  assert.is((await kc.get('/flows')).directGrantFlow, 'strict-grant');
  assert.equal(await outline('strict-grant'), built);
  assert.ok((await grant()) >= 400, 'the custom flow is the one Keycloak runs: the blocked user is refused');
  await kc.admin.call('e2e', 'DELETE', `/flows/users/${carl?.id}/role-mappings/realm`, [blocked]);
  assert.is(await grant(), 200, 'without the role, the same flow lets the user in');
  await kc.admin.call('e2e', 'POST', `/flows/users/${carl?.id}/role-mappings/realm`, [blocked]);
  kc.counter.writes = 0;
  assert.equal((await kc.sync(strict)).writes, [], 'steady');
  assert.is(kc.counter.writes, 0);
});

test('a hand edit of the flow is replaced', async () => {
  // The whole conditional sub-flow disabled by hand (a valid flow that no longer checks the role). Disabling only
  // its deny step is not: Keycloak 26 answers such a grant with HTTP 500.
  const list = (await kc.get('/flows/authentication/flows/strict-grant/executions')) as Rep[];
  const sub = list.find((e) => e.authenticationFlow && e.displayName === 'blocked-users');
  await kc.admin.call('e2e', 'PUT', '/flows/authentication/flows/strict-grant/executions', {
    ...sub,
    requirement: 'DISABLED',
  });
  assert.is(await grant(), 200, 'the hand edit opened the door');
  assert.equal((await kc.sync(strict)).writes, [
    'build authentication flow strict-grant (5 steps)',
    'bind directGrantFlow to the next version of strict-grant',
    'delete the old version of authentication flow strict-grant',
    'rename the next version of authentication flow strict-grant',
  ]);
  assert.equal(await outline('strict-grant'), built);
  assert.ok((await grant()) >= 400, 'closed again');
  kc.counter.writes = 0;
  assert.equal((await kc.sync(strict)).writes, [], 'steady again');
  assert.is(kc.counter.writes, 0);
});

test('an authenticator the server lacks is InvalidSpec naming the field; nothing is written', async () => {
  const info = compactServerInfo((await kc.admin.call<Rep>('e2e', 'GET', '../serverinfo')).body);
  const wrong = realmResource('flows', {
    ...strict.spec,
    authenticationFlows: [
      { alias: 'strict-grant', executions: [{ authenticator: 'no-such-step', requirement: 'REQUIRED' }] },
    ],
  });
  kc.counter.writes = 0;
  const error = await syncRealm(kc.admin, wrong, { keycloakVersion: kc.version, serverInfo: info }).then(
    () => 'applied',
    (e: Error) => e.message,
  );
  assert.match(
    error,
    /spec\.authenticationFlows\[strict-grant\]\.executions\[0\]\.authenticator: Keycloak \S+ has no authenticator provider "no-such-step"/,
  );
  assert.is(kc.counter.writes, 0);
});

test("removed from the spec: Keycloak's direct grant is bound again and the flow deleted", async () => {
  const result = await kc.sync(realmResource('flows', base));
  assert.ok(result.writes.includes('delete authentication flow strict-grant'), result.writes.join('; '));
  assert.is((await kc.get('/flows')).directGrantFlow, 'direct grant');
  const flows = ((await kc.get('/flows/authentication/flows')) as Rep[]).map((f) => f.alias);
  assert.not.ok(flows.includes('strict-grant'));
  assert.ok(flows.includes('direct grant') && flows.includes('browser'), "Keycloak's flows stay");
  assert.is(await grant(), 200, 'the built-in flow runs again');
  kc.counter.writes = 0;
  assert.equal((await kc.sync(realmResource('flows', base))).writes, [], 'steady after pruning');
  assert.is(kc.counter.writes, 0);
});

// A bound browser flow with OTP, changed while people log in (helpers/otp-login.ts: version one asks for the
// password and the OTP; version two the same inside a sub-flow, after a cookie check). Keycloak adds an execution
// DISABLED, so a flow edited in place refuses logins, then lets a password alone through; a replaced one never does.
const otpVersions = [0, 1].map((v) => realmResource('otpflows', otpRealmSpec(v as 0 | 1) as never));
const keycloakUrl = () => String(kc.env.state.keycloak?.httpUrl);

test('a bound browser flow with OTP is replaced while people log in: no login without the OTP, none refused', async () => {
  await kc.sync(otpVersions[0] as IdentityRealm);
  await otpPerson(async (method, path, body) => {
    const res = await kc.admin.call('e2e', method, path, body);
    assert.ok(res.status < 300, `${method} ${path}: ${res.status}`);
  }, 'otpflows');
  assert.equal(wrongOutcomes(await loginPair(keycloakUrl(), 'otpflows')), [], 'before any change');
  for (const version of [1, 0, 1]) {
    const sync = kc.sync(otpVersions[version] as IdentityRealm);
    const outcomes = await loginLoop(keycloakUrl(), 'otpflows', sync);
    const writes = (await sync).writes;
    assert.ok(
      writes.includes(`build authentication flow otp-browser (${version ? 4 : 2} steps)`),
      writes.join('; '),
    );
    console.log(
      `flows: ${outcomes.length} logins while otp-browser was replaced (${writes.length} writes), ${restarts(outcomes)} valid ones in flight at the switch restarted by Keycloak`,
    );
    assert.ok(outcomes.length >= 4, `only ${outcomes.length} logins during the change`);
    assert.equal(wrongOutcomes(outcomes), []);
  }
});

test('a crash after any write of a replacement leaves a complete flow bound; the next sync finishes it', async () => {
  await kc.sync(otpVersions[0] as IdentityRealm);
  for (let limit = 0, version = 0; ; limit++) {
    version = 1 - version;
    const crashing = killedAfter(kc.admin, limit);
    const crashed = await syncRealm(crashing, otpVersions[version] as IdentityRealm, {
      keycloakVersion: kc.version,
    }).then(
      () => false,
      () => true,
    );
    const outcomes = await loginPair(keycloakUrl(), 'otpflows');
    assert.equal(wrongOutcomes(outcomes), [], `after a crash after ${limit} writes`);
    await kc.sync(otpVersions[version] as IdentityRealm);
    const flows = ((await kc.get('/otpflows/authentication/flows')) as Rep[]).map((f) => f.alias);
    assert.not.ok(
      flows.some((a) => a.includes('-realmforge-next')),
      `leftovers after ${limit}: ${flows}`,
    );
    assert.is((await kc.get('/otpflows')).browserFlow, 'otp-browser');
    kc.counter.writes = 0;
    assert.equal((await kc.sync(otpVersions[version] as IdentityRealm)).writes, [], `steady after ${limit}`);
    if (!crashed) {
      console.log(`flows: a crash after each of ${limit} writes left a complete flow bound`);
      break;
    }
  }
});

test.run();
