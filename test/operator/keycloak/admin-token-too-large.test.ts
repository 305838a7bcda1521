// A Keycloak whose header limit the admin token outgrows (keycloak/keycloak#25498): HTTP 431, or a proxy's 400 that
// says the header is too large, is AdminTokenTooLarge with the fix in its message, never "unavailable"; an
// ordinary 400 stays a validation error.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { RealmforgeError } from '../../../src/core/errors.ts';
import { createAdminClient } from '../../../src/operator/keycloak/admin-client.ts';
import {
  AdminTokenTooLargeError,
  headersTooLarge,
} from '../../../src/operator/keycloak/admin-token-too-large.ts';
import { headerLimitedKeycloak, plainDeps } from './header-limited-keycloak.ts';

async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (e) {
    return e;
  }
  throw new Error('expected a failure');
}

test('HTTP 431 on an admin call is AdminTokenTooLarge naming the token size and the fix', async () => {
  const kc = await headerLimitedKeycloak({ tokenBytes: 30_000, limit: 20_480 });
  try {
    const admin = createAdminClient(kc.url, { username: 'admin', password: 'pw' }, plainDeps());
    const e = await failure(admin.call('team', 'GET', '/a'));
    assert.instance(e, AdminTokenTooLargeError);
    assert.is((e as AdminTokenTooLargeError).reason, 'AdminTokenTooLarge');
    assert.match((e as Error).message, /HTTP 431: the request headers are too large/);
    assert.match((e as Error).message, /admin access token is 30000 bytes/);
    assert.match((e as Error).message, /lightweight access tokens/);
    assert.match((e as Error).message, /QUARKUS_HTTP_LIMITS_MAX_HEADER_SIZE/);
  } finally {
    await kc.close();
  }
});

test('a proxy 400 saying the header is too large is the same error; an ordinary 400 stays validation', async () => {
  const proxied = await headerLimitedKeycloak({ tokenBytes: 9000, limit: 8192, answer: 400 });
  const fine = await headerLimitedKeycloak({ tokenBytes: 100, limit: 8192 });
  try {
    const e = await failure(
      createAdminClient(proxied.url, { username: 'a', password: 'p' }, plainDeps()).call('t', 'GET', '/a'),
    );
    assert.instance(e, AdminTokenTooLargeError);
    assert.match((e as Error).message, /HTTP 400/);
    const admin = createAdminClient(fine.url, { username: 'a', password: 'p' }, plainDeps());
    assert.is((await admin.call('t', 'GET', '/a')).status, 200);
    const bad = await failure(admin.call('t', 'PUT', '/bad', {}));
    assert.not.instance(bad, AdminTokenTooLargeError);
    assert.is((bad as RealmforgeError).kind, 'validation');
  } finally {
    await proxied.close();
    await fine.close();
  }
});

test('headersTooLarge: 431 always, 400 only when its text says so', () => {
  const cases: [number, unknown, boolean][] = [
    [431, '', true],
    [400, '400 Request Header Or Cookie Too Large', true],
    [400, { error: 'Request header is too large' }, true],
    [400, { errorMessage: 'invalid redirect uri' }, false],
    [413, 'Payload Too Large', false],
    [500, 'headers too large', false],
  ];
  for (const [status, body, want] of cases)
    assert.is(headersTooLarge(status, body), want, `${status} ${body}`);
});

test.run();
