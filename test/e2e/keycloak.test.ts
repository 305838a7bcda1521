// The harness's own Keycloak (the real distribution on the environment's PostgreSQL): health on the management
// port, an admin token from the password grant on the HTTP port.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { type TestEnv, testEnv } from '../../scripts/testenv/harness.ts';

let env: TestEnv;
test.before(async () => {
  env = await testEnv();
});

const token = (base: string, password: string) =>
  fetch(`${base}/realms/master/protocol/openid-connect/token`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'password',
      client_id: 'admin-cli',
      username: env.state.keycloak!.adminUsername,
      password,
    }),
  });

test('Keycloak answers /health/ready UP on the management port, and not on the HTTP port', async () => {
  const kc = env.state.keycloak;
  assert.ok(kc, 'the environment started a Keycloak');
  const ready = await fetch(`${kc.managementUrl}/health/ready`);
  assert.is(ready.status, 200);
  assert.is(((await ready.json()) as { status: string }).status, 'UP');
  const onHttp = await fetch(`${kc.httpUrl}/health/ready`);
  assert.is(onHttp.status, 404, 'health lives on the management interface only');
});

test('Keycloak issues an admin token on the HTTP port (password grant, admin-cli, master)', async () => {
  const kc = env.state.keycloak!;
  const res = await token(kc.httpUrl, kc.adminPassword);
  assert.is(res.status, 200);
  const body = (await res.json()) as { access_token: string };
  assert.type(body.access_token, 'string');
  const claims = JSON.parse(Buffer.from(body.access_token.split('.')[1], 'base64url').toString());
  assert.is(claims.azp, 'admin-cli');
  assert.match(claims.iss, /\/realms\/master$/);
  const realms = await fetch(`${kc.httpUrl}/admin/realms`, {
    headers: { authorization: `Bearer ${body.access_token}` },
  });
  assert.is(realms.status, 200, 'the token works on the admin API');
  const wrong = await token(kc.httpUrl, 'wrong-password');
  assert.ok([400, 401].includes(wrong.status), `a wrong password is refused (${wrong.status})`);
  assert.is(((await wrong.json()) as { error: string }).error, 'invalid_grant');
});

test('the token endpoint is not served on the management port', async () => {
  const kc = env.state.keycloak!;
  const res = await token(kc.managementUrl, kc.adminPassword);
  assert.is(res.status, 404);
});

test('Keycloak runs the selected version on PostgreSQL', async () => {
  const kc = env.state.keycloak!;
  const metrics = await (await fetch(`${kc.managementUrl}/metrics`)).text();
  assert.match(metrics, /agroal|jvm_/, 'metrics are enabled');
  const expected = process.env.REALMFORGE_KEYCLOAK === '25' ? /^25\./ : /^26\./;
  assert.match(kc.version, expected);
  const log = (await import('node:fs')).readFileSync(`${env.state.runDir}/keycloak.log`, 'utf8');
  assert.match(log, new RegExp(`Keycloak ${kc.version.replaceAll('.', '\\.')} on JVM`));
  assert.match(log, /postgres/i);
});

test.run();
