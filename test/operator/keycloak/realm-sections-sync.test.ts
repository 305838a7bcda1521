// Every realm section through the realm sync against the strict in-memory Keycloak: applied it reads back equal,
// a steady resync writes nothing, a hand edit is reverted, and removing the sections returns every field to what
// a new realm has.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { IdentityRealm } from '../../../generated/types/crds/identityrealm.ts';
import { syncRealm } from '../../../src/operator/controllers/identity-realm/realm-sync.ts';
import type { AdminClient } from '../../../src/operator/keycloak/admin-client.ts';
import { sameField } from '../../../src/operator/keycloak/collections/managed-fields.ts';
import { realmFields } from '../../../src/operator/keycloak/collections/realm-fields.ts';
import { SpecRefusedError } from '../../../src/operator/keycloak/spec-refused.ts';
import { fakeKeycloakAdmin } from './fake-keycloak-admin.ts';
import { everyRealmField } from './realm-everything.ts';

const resource = (spec: Partial<IdentityRealm['spec']>): IdentityRealm => ({
  apiVersion: 'realmforge.dev/v1',
  kind: 'IdentityRealm',
  metadata: { name: 'all', namespace: 'team' },
  spec: { serverRef: { name: 'kc' }, ...spec },
});
const everything = resource(everyRealmField);

/** The fields a user compares: the realm without ids, sub-collections and the operator's bookkeeping. */
function settings(live: Record<string, unknown> | undefined): Record<string, unknown> {
  const {
    id: _i,
    roles: _r,
    groups: _g,
    clients: _c,
    users: _u,
    clientScopes: _s,
    scopeLinks: _l,
    attributes,
    ...rest
  } = live ?? {};
  const attrs = { ...(attributes as Record<string, unknown>) };
  delete attrs['realmforge.dev/managed-fields'];
  return { ...rest, attributes: Object.fromEntries(Object.entries(attrs).filter(([, v]) => v !== '')) };
}

test('every section is created in one call and a steady resync writes nothing', async () => {
  const kc = fakeKeycloakAdmin();
  assert.equal((await syncRealm(kc.admin, everything, {})).writes, ['create realm']);
  const live = kc.realms.get('all');
  assert.is(
    live?.passwordPolicy,
    'length(12) and maxLength(64) and digits(1) and upperCase(1) and lowerCase(1) and specialChars(1) and notUsername(undefined) and notEmail(undefined) and passwordHistory(3) and forceExpiredPasswordChange(90) and regexPattern(^[^ ]+$) and hashAlgorithm(pbkdf2-sha512) and hashIterations(210000)',
  );
  assert.is(live?.bruteForceProtected, true);
  assert.is(live?.browserSecurityHeaders.xFrameOptions, 'DENY');
  assert.is(live?.browserSecurityHeaders.xContentTypeOptions, 'nosniff');
  assert.is(live?.webAuthnPolicyPasswordlessRpEntityName, 'everything-passkeys');
  assert.is(live?.attributes['team.owner'], 'platform');
  kc.reset();
  assert.equal((await syncRealm(kc.admin, everything, {})).writes, []);
  assert.equal(kc.writes(), []);
});

test('hand edits are reverted; the same policy in another order and Keycloak-ordered lists are not drift', async () => {
  const kc = fakeKeycloakAdmin();
  await syncRealm(kc.admin, everything, {});
  const live = kc.realms.get('all');
  if (!live) throw new Error('no realm');
  // The same policy written in another order, lists in another order: the same settings.
  live.passwordPolicy = live.passwordPolicy.split(' and ').reverse().join(' and ');
  live.supportedLocales = ['fr', 'de', 'en'];
  live.webAuthnPolicyPasswordlessSignatureAlgorithms = ['ES384', 'RS256', 'ES256'];
  assert.equal((await syncRealm(kc.admin, everything, {})).writes, []);
  live.passwordPolicy = 'length(4)';
  live.failureFactor = 100;
  live.browserSecurityHeaders = { ...live.browserSecurityHeaders, xFrameOptions: 'SAMEORIGIN' };
  live.eventsListeners = ['jboss-logging'];
  live.otpPolicyDigits = 6;
  live.attributes['team.owner'] = 'someone';
  const result = await syncRealm(kc.admin, everything, {});
  assert.equal(result.writes, [
    'update realm (browserSecurityHeaders, failureFactor, passwordPolicy, otpPolicyDigits, eventsListeners, attributes/team.owner)',
  ]);
  assert.match(live.passwordPolicy, /^length\(12\) and maxLength\(64\)/);
  assert.equal(
    [live.failureFactor, live.browserSecurityHeaders.xFrameOptions, live.otpPolicyDigits],
    [3, 'DENY', 8],
  );
  assert.equal(live.eventsListeners, ['jboss-logging', 'email']);
  assert.is(live.attributes['team.owner'], 'platform');
});

test('removing every section returns every field to what a new realm has', async () => {
  const kc = fakeKeycloakAdmin();
  await syncRealm(kc.admin, resource({}), {});
  const fresh = settings(kc.realms.get('all'));
  kc.realms.clear();
  await syncRealm(kc.admin, everything, {});
  const result = await syncRealm(kc.admin, resource({}), {});
  assert.is(result.writes.length, 1, result.writes.join('; '));
  const reset = settings(kc.realms.get('all'));
  // Fields Keycloak leaves out while unset come back empty from a reset (what the admin console shows too).
  const differs = Object.keys(realmFields.defaults).filter(
    (f) => f !== 'realm' && !sameField(f, fresh[f] ?? realmFields.defaults[f], reset[f], realmFields),
  );
  assert.equal(differs, []);
  assert.equal(reset.attributes, fresh.attributes);
  assert.equal([reset.passwordPolicy, reset.defaultLocale, reset.eventsExpiration], ['', '', 0]);
  kc.reset();
  assert.equal((await syncRealm(kc.admin, resource({}), {})).writes, [], 'steady after the reset');
});

test('an update carries the policies Keycloak would reset when left out; a hand-set one stays', async () => {
  const kc = fakeKeycloakAdmin();
  await syncRealm(kc.admin, resource({ otpPolicy: { digits: 8 } }), {});
  const live = kc.realms.get('all');
  assert.equal([live?.otpPolicyDigits, live?.otpPolicyType], [8, 'totp'], 'the policy is sent whole');
  // Settings the spec does not manage, set by hand (Keycloak rebuilds them from every update).
  Object.assign(live ?? {}, { oauth2DeviceCodeLifespan: 900, webAuthnPolicyRpEntityName: 'by-hand' });
  await syncRealm(kc.admin, resource({ otpPolicy: { digits: 8 }, tokens: { accessTokenLifespan: 60 } }), {});
  assert.equal(
    [
      live?.accessTokenLifespan,
      live?.oauth2DeviceCodeLifespan,
      live?.webAuthnPolicyRpEntityName,
      live?.otpPolicyDigits,
    ],
    [60, 900, 'by-hand', 8],
  );
});

test("a setting Keycloak refuses is InvalidSpec naming the fields and Keycloak's error; nothing else changes", async () => {
  const kc = fakeKeycloakAdmin();
  await syncRealm(kc.admin, resource({ passwordPolicy: { length: 8 } }), {});
  const live = kc.realms.get('all');
  // A policy this Keycloak does not know, as a hand-written string would carry (the schema cannot name it).
  const refused = resource({ passwordPolicy: { length: 8 }, tokens: { accessTokenLifespan: 60 } });
  const original = kc.admin.call.bind(kc.admin);
  const admin: AdminClient = {
    ...kc.admin,
    call: (ns: string, method: 'GET' | 'PUT' | 'POST' | 'DELETE', path: string, body?: unknown) =>
      original(
        ns,
        method,
        path,
        method === 'PUT' ? { ...(body as object), passwordPolicy: 'noSuchPolicy(1)' } : body,
      ),
  };
  try {
    await syncRealm(admin, refused, {});
    assert.unreachable('must refuse');
  } catch (error) {
    assert.instance(error, SpecRefusedError);
    assert.is((error as SpecRefusedError).reason, 'InvalidSpec');
    assert.match(
      (error as Error).message,
      /Keycloak refused the realm settings the spec sets \(accessTokenLifespan/,
    );
    assert.match((error as Error).message, /Invalid config for noSuchPolicy/);
  }
  assert.equal([live?.passwordPolicy, live?.accessTokenLifespan], ['length(8)', 300], 'nothing half-applied');
});

test.run();
