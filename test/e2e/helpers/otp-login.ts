// Browser logins with a password and a TOTP code, for the suites that change a bound browser flow while people log
// in: a person (a public client `loop` and a user with a password and an OTP credential, made with the admin
// API), one login as a browser does it (login form, then the OTP form), and a loop of valid and wrong ones.
import { createHmac } from 'node:crypto';
import { Browser, formsOf } from './browser.ts';

type Call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown) => Promise<unknown>;
export type LoginOutcome = { valid: boolean; result: string };

const otpKey = 'e2e-totp-key-not-random-1234';
const callback = 'http://127.0.0.1:9/callback';
export const otpUser = { username: 'olga', password: 'correct-horse-battery-9' };

const passwordAndOtp = [
  { authenticator: 'auth-username-password-form', requirement: 'REQUIRED' },
  { authenticator: 'auth-otp-form', requirement: 'REQUIRED' },
];
/** A realm spec binding browser flow otp-browser, in two versions: password and OTP; the same in a sub-flow after
 * a cookie check. */
export const otpRealmSpec = (version: 0 | 1) => ({
  login: { sslRequired: 'none' as const },
  // Logins repeat within one period with the one code.
  otpPolicy: { codeReusable: true },
  authenticationFlowBindings: { browser: 'otp-browser' },
  authenticationFlows: version
    ? [
        {
          alias: 'otp-browser',
          executions: [
            { authenticator: 'auth-cookie', requirement: 'ALTERNATIVE' },
            { subFlow: 'otp-forms', requirement: 'ALTERNATIVE' },
          ],
        },
        { alias: 'otp-forms', topLevel: false, executions: passwordAndOtp },
      ]
    : [{ alias: 'otp-browser', executions: passwordAndOtp }],
});

/** RFC 6238 with Keycloak's defaults (HmacSHA1, 6 digits, 30 s; Keycloak keys it with the secret's UTF-8 bytes). */
function totp(key: string) {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(Date.now() / 30_000)));
  const h = createHmac('sha1', Buffer.from(key, 'utf8')).update(counter).digest();
  const o = (h[h.length - 1] ?? 0) & 0xf;
  return String((h.readUInt32BE(o) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

/** Makes client `loop` and user olga (password and OTP) in `realm` with `call` (the admin API under /admin/realms). */
export async function otpPerson(call: Call, realm: string) {
  const r = encodeURIComponent(realm);
  await call('POST', `/${r}/clients`, {
    clientId: 'loop',
    publicClient: true,
    redirectUris: [callback],
    standardFlowEnabled: true,
  });
  await call('POST', `/${r}/users`, {
    username: otpUser.username,
    enabled: true,
    email: 'olga@example.test',
    firstName: 'Olga',
    lastName: 'Ode',
    credentials: [
      { type: 'password', value: otpUser.password, temporary: false },
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
}

/** One browser login of olga at `keycloakUrl`: with the OTP, or with a wrong one; 'in' when the code arrives,
 * 'restarted' when Keycloak showed the login form again (a login in flight while the bound flow was switched:
 * its session names steps of the old version, so Keycloak starts it over), else 'refused (...)'. */
export async function browserLogin(keycloakUrl: string, realm: string, withOtp: boolean): Promise<string> {
  const browser = new Browser(callback);
  const query = new URLSearchParams({
    client_id: 'loop',
    redirect_uri: callback,
    response_type: 'code',
    scope: 'openid',
  });
  let page = await browser.open(
    `${keycloakUrl}/realms/${encodeURIComponent(realm)}/protocol/openid-connect/auth?${query}`,
  );
  const has = (id: string) => !page.stoppedAt && formsOf(page.html, page.url).some((f) => f.id === id);
  page = await browser.submit(page, 'kc-form-login', otpUser);
  if (has('kc-form-login')) return 'restarted';
  if (has('kc-otp-login-form'))
    page = await browser.submit(page, 'kc-otp-login-form', { otp: withOtp ? totp(otpKey) : '000000' });
  if (page.stoppedAt?.includes('code=')) return 'in';
  if (withOtp && has('kc-form-login')) return 'restarted';
  return `refused (${page.status} ${page.html.replace(/\s+/g, ' ').slice(0, 200)})`;
}

/** A valid and a wrong login, one each; a valid login Keycloak restarted is tried again once, as a person would. */
export async function loginPair(url: string, realm: string): Promise<LoginOutcome[]> {
  const first = await browserLogin(url, realm, true);
  const valid = first === 'restarted' ? `restarted, then ${await browserLogin(url, realm, true)}` : first;
  return [
    { valid: true, result: valid },
    { valid: false, result: await browserLogin(url, realm, false) },
  ];
}

/** Two loops of login pairs until `done` settles; every outcome. */
export async function loginLoop(url: string, realm: string, done: Promise<unknown>): Promise<LoginOutcome[]> {
  const outcomes: LoginOutcome[] = [];
  let over = false;
  void done.finally(() => {
    over = true;
  });
  const loop = async () => {
    while (!over) outcomes.push(...(await loginPair(url, realm)));
  };
  await Promise.all([loop(), loop(), done]);
  return outcomes;
}

/** The outcomes that are wrong: a valid login refused (or restarted twice), or a wrong OTP let in. */
export const wrongOutcomes = (outcomes: readonly LoginOutcome[]) =>
  outcomes.filter((o) =>
    o.valid ? o.result !== 'in' && o.result !== 'restarted, then in' : o.result === 'in',
  );
/** How many valid logins Keycloak restarted once. */
export const restarts = (outcomes: readonly LoginOutcome[]) =>
  outcomes.filter((o) => o.result.startsWith('restarted, then')).length;
