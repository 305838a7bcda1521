// Custom authentication flows against the real Keycloak (26 by default, 25 with REALMFORGE_KEYCLOAK=25), through
// the realm sync the operator runs: a custom direct-grant flow bound to the realm is the one Keycloak runs (a user
// with the role "blocked" is refused a password grant the built-in flow would allow); the flow reads back in
// order, a steady resync writes nothing, a hand edit is rebuilt, and removing it rebinds Keycloak's own flow and
// deletes it; an authenticator the server lacks is refused naming the field, with nothing written. A bound browser
// flow with OTP is replaced while a login loop runs (no login without the OTP, no valid one refused), and a crash
// after any write of a replacement leaves a complete flow bound.
import { createHmac } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { IdentityRealm } from '../../generated/types/crds/identityrealm.ts';
import { syncRealm } from '../../src/operator/controllers/identity-realm/realm-sync.ts';
import { compactServerInfo } from '../../src/operator/keycloak/server-info.ts';
import { killedAfter } from '../operator/keycloak/killed-admin.ts';
import { Browser, formsOf } from './helpers/browser.ts';
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

// A bound browser flow with OTP, changed while people log in: version one asks for the password and the OTP; version
// two the same inside a sub-flow, after a cookie check. Keycloak adds an execution DISABLED, so a flow edited in
// place refuses logins, then lets a password alone through; a replaced one never does.
const otpKey = 'e2e-totp-key-not-random-1234';
const otpBase: Partial<IdentityRealm['spec']> = {
  login: { sslRequired: 'none' },
  // The loop logs in many times a period with the one code.
  otpPolicy: { codeReusable: true },
  authenticationFlowBindings: { browser: 'otp-browser' },
};
const passwordAndOtp = [
  { authenticator: 'auth-username-password-form', requirement: 'REQUIRED' },
  { authenticator: 'auth-otp-form', requirement: 'REQUIRED' },
] as const;
const otpVersions = [
  realmResource('otpflows', {
    ...otpBase,
    authenticationFlows: [{ alias: 'otp-browser', executions: [...passwordAndOtp] }],
  }),
  realmResource('otpflows', {
    ...otpBase,
    authenticationFlows: [
      {
        alias: 'otp-browser',
        executions: [
          { authenticator: 'auth-cookie', requirement: 'ALTERNATIVE' },
          { subFlow: 'otp-forms', requirement: 'ALTERNATIVE' },
        ],
      },
      { alias: 'otp-forms', topLevel: false, executions: [...passwordAndOtp] },
    ],
  }),
];

/** RFC 6238 with Keycloak's defaults (HmacSHA1, 6 digits, 30 s; Keycloak keys it with the secret's UTF-8 bytes). */
function totp(key: string) {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(Date.now() / 30_000)));
  const h = createHmac('sha1', Buffer.from(key, 'utf8')).update(counter).digest();
  const o = (h[h.length - 1] ?? 0) & 0xf;
  const n = (h.readUInt32BE(o) & 0x7fffffff) % 1_000_000;
  return String(n).padStart(6, '0');
}

const callback = 'http://127.0.0.1:9/callback';
/** One browser login of olga: with the OTP, or with a wrong one. 'in' when the code reaches the callback. */
async function browserLogin(withOtp: boolean): Promise<string> {
  const browser = new Browser(callback);
  const query = new URLSearchParams({
    client_id: 'loop',
    redirect_uri: callback,
    response_type: 'code',
    scope: 'openid',
  });
  let page = await browser.open(
    `${kc.env.state.keycloak?.httpUrl}/realms/otpflows/protocol/openid-connect/auth?${query}`,
  );
  page = await browser.submit(page, 'kc-form-login', { username: 'olga', password });
  if (!page.stoppedAt && formsOf(page.html, page.url).some((f) => f.id === 'kc-otp-login-form'))
    page = await browser.submit(page, 'kc-otp-login-form', { otp: withOtp ? totp(otpKey) : '000000' });
  if (page.stoppedAt?.includes('code=')) return 'in';
  return `refused (${page.status} ${page.html.replace(/\s+/g, ' ').slice(0, 200)})`;
}
/** Logins, a valid and a wrong one at a time, until `done` settles; every outcome. */
async function loginLoop(done: Promise<unknown>) {
  const outcomes: { valid: boolean; result: string }[] = [];
  let over = false;
  void done.finally(() => {
    over = true;
  });
  const loop = async () => {
    while (!over)
      for (const valid of [true, false]) outcomes.push({ valid, result: await browserLogin(valid) });
  };
  await Promise.all([loop(), loop(), done]);
  return outcomes;
}
const wrongOutcomes = (outcomes: { valid: boolean; result: string }[]) =>
  outcomes.filter((o) => (o.valid ? o.result !== 'in' : o.result === 'in'));

test('a bound browser flow with OTP is replaced while people log in: no login without the OTP, none refused', async () => {
  await kc.sync(otpVersions[0] as IdentityRealm);
  await kc.admin.call('e2e', 'POST', '/otpflows/clients', {
    clientId: 'loop',
    publicClient: true,
    redirectUris: [callback],
    standardFlowEnabled: true,
  });
  const created = await kc.admin.call('e2e', 'POST', '/otpflows/users', {
    username: 'olga',
    enabled: true,
    email: 'olga@example.test',
    firstName: 'Olga',
    lastName: 'Ode',
    credentials: [
      { type: 'password', value: password, temporary: false },
      {
        type: 'otp',
        userLabel: 'phone',
        secretData: JSON.stringify({ value: otpKey }),
        credentialData: JSON.stringify({
          subType: 'totp',
          digits: 6,
          counter: 0,
          period: 30,
          algorithm: 'HmacSHA1',
        }),
      },
    ],
  });
  assert.is(created.status, 201);
  assert.is(await browserLogin(true), 'in', 'password and OTP log in');
  assert.is.not(await browserLogin(false), 'in', 'a wrong OTP does not');
  for (const version of [1, 0, 1]) {
    const sync = kc.sync(otpVersions[version] as IdentityRealm);
    const outcomes = await loginLoop(sync);
    const writes = (await sync).writes;
    assert.ok(
      writes.includes('build authentication flow otp-browser (' + (version ? 4 : 2) + ' steps)'),
      writes.join('; '),
    );
    console.log(`flows: ${outcomes.length} logins while otp-browser was replaced (${writes.length} writes)`);
    assert.ok(outcomes.length >= 4, `only ${outcomes.length} logins during the change`);
    assert.equal(wrongOutcomes(outcomes), []);
  }
});

test('a crash after any write of a replacement leaves a complete flow bound; the next sync finishes it', async () => {
  for (let limit = 0, version = 0; ; limit++) {
    version = 1 - version;
    const crashing = killedAfter(kc.admin, limit);
    const crashed = await syncRealm(crashing, otpVersions[version] as IdentityRealm, {
      keycloakVersion: kc.version,
    }).then(
      () => false,
      () => true,
    );
    const outcomes = [
      { valid: true, result: await browserLogin(true) },
      { valid: false, result: await browserLogin(false) },
    ];
    assert.equal(wrongOutcomes(outcomes), [], `after a crash after ${limit} writes`);
    await kc.sync(otpVersions[version] as IdentityRealm);
    const flows = ((await kc.get('/otpflows/authentication/flows')) as Rep[]).map((f) => f.alias);
    assert.not.ok(
      flows.some((a) => a.includes('realmforge next')),
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
