// The realm sections compile onto Keycloak's own field names: the password policy to Keycloak's policy string
// (and back for comparison), headers merged over Keycloak's defaults, brute-force detection switched on by its
// section, an offline session limit turning its flag on, OTP and WebAuthn policies onto their prefixed fields.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { IdentityRealm } from '../../../generated/types/crds/identityrealm.ts';
import {
  parsePasswordPolicy,
  passwordPolicyString,
} from '../../../src/operator/compile/realm/password-policy.ts';
import { defaultHeaders } from '../../../src/operator/compile/realm/security-defenses.ts';
import { compileRealm, realmFieldDefaultsFor } from '../../../src/operator/compile/realm-representation.ts';

const realm = (spec: Partial<IdentityRealm['spec']>): Record<string, unknown> =>
  compileRealm({
    apiVersion: 'realmforge.dev/v1',
    kind: 'IdentityRealm',
    metadata: { name: 'shop', namespace: 'identity' },
    spec: { serverRef: { name: 'kc' }, ...spec },
  }) as Record<string, unknown>;

test("the password policy compiles to Keycloak's string in a fixed order, flags as id(undefined)", () => {
  const text = passwordPolicyString({
    hashIterations: 210000,
    notUsername: true,
    notEmail: false,
    length: 12,
    digits: 1,
    regexPattern: '^[a-z].*$',
    hashAlgorithm: 'pbkdf2-sha512',
  });
  assert.is(
    text,
    'length(12) and digits(1) and notUsername(undefined) and regexPattern(^[a-z].*$) and hashAlgorithm(pbkdf2-sha512) and hashIterations(210000)',
  );
  assert.is(realm({ passwordPolicy: { length: 8 } }).passwordPolicy, 'length(8)');
  assert.not.ok('passwordPolicy' in realm({}), 'no section, no field');
});

test('a policy string is compared parsed: order and flag spelling do not matter, values do', () => {
  const ours = parsePasswordPolicy('length(12) and notUsername(undefined) and digits(1)');
  assert.equal(parsePasswordPolicy('digits(1) and notUsername and length(12)'), ours);
  assert.not.equal(parsePasswordPolicy('digits(2) and notUsername and length(12)'), ours);
  assert.equal(parsePasswordPolicy('regexPattern((a|b)+)'), { regexPattern: '(a|b)+' });
  assert.equal(parsePasswordPolicy(''), {});
  assert.equal(parsePasswordPolicy(undefined), {});
});

test("browser headers are sent merged over Keycloak's defaults, so the map is compared and reset whole", () => {
  const headers = realm({ securityDefenses: { headers: { xFrameOptions: 'DENY' } } }).browserSecurityHeaders;
  assert.equal(headers, { ...defaultHeaders, xFrameOptions: 'DENY' });
  assert.not.ok('bruteForceProtected' in realm({ securityDefenses: { headers: {} } }));
});

test('brute-force detection: its section turns bruteForceProtected on with the lockout settings', () => {
  const r = realm({
    securityDefenses: { bruteForceDetection: { failureFactor: 3, permanentLockout: false } },
  });
  assert.equal(
    { p: r.bruteForceProtected, f: r.failureFactor, l: r.permanentLockout },
    { p: true, f: 3, l: false },
  );
  assert.not.ok('browserSecurityHeaders' in r, 'headers left alone when the spec does not set them');
});

test('tokens: an offline session max lifespan turns its limit on; others map one to one', () => {
  const r = realm({
    tokens: { offlineSessionMaxLifespan: 100, revokeRefreshToken: true, refreshTokenMaxReuse: 2 },
  });
  assert.equal(
    [
      r.offlineSessionMaxLifespanEnabled,
      r.offlineSessionMaxLifespan,
      r.revokeRefreshToken,
      r.refreshTokenMaxReuse,
    ],
    [true, 100, true, 2],
  );
  assert.not.ok('offlineSessionMaxLifespanEnabled' in realm({ tokens: { accessTokenLifespan: 60 } }));
});

test('OTP and WebAuthn policies land on their prefixed Keycloak fields', () => {
  const r = realm({
    otpPolicy: { type: 'totp', digits: 8, codeReusable: true },
    webAuthnPolicy: { rpEntityName: 'shop', signatureAlgorithms: ['ES256'] },
    webAuthnPasswordlessPolicy: { userVerificationRequirement: 'required' },
  });
  assert.equal([r.otpPolicyType, r.otpPolicyDigits, r.otpPolicyCodeReusable], ['totp', 8, true]);
  assert.equal([r.webAuthnPolicyRpEntityName, r.webAuthnPolicySignatureAlgorithms], ['shop', ['ES256']]);
  assert.is(r.webAuthnPolicyPasswordlessUserVerificationRequirement, 'required');
});

test('localization turns internationalization on; events and attributes pass through', () => {
  const r = realm({
    localization: { supportedLocales: ['en', 'de'], defaultLocale: 'en' },
    events: { eventsEnabled: true, enabledEventTypes: ['LOGIN'] },
    attributes: { 'team.owner': 'shop' },
  });
  assert.equal(
    [r.internationalizationEnabled, r.supportedLocales, r.defaultLocale],
    [true, ['en', 'de'], 'en'],
  );
  assert.equal([r.eventsEnabled, r.enabledEventTypes], [true, ['LOGIN']]);
  assert.equal(r.attributes, { 'team.owner': 'shop' });
});

test("Keycloak 25's own defaults fill a policy and the headers on 25 (ES256 only, X-XSS-Protection)", () => {
  const spec = {
    webAuthnPolicy: { rpEntityName: 'shop' },
    securityDefenses: { headers: { xFrameOptions: 'DENY' } },
  };
  const compile = (keycloakVersion?: string) =>
    compileRealm(
      {
        apiVersion: 'realmforge.dev/v1',
        kind: 'IdentityRealm',
        metadata: { name: 'shop', namespace: 'identity' },
        spec: { serverRef: { name: 'kc' }, ...spec },
      },
      { keycloakVersion },
    ) as Record<string, any>;
  assert.equal(compile('25.0.6').webAuthnPolicySignatureAlgorithms, ['ES256']);
  assert.is(compile('25.0.6').browserSecurityHeaders.xXSSProtection, '1; mode=block');
  assert.equal(compile('26.7.3').webAuthnPolicySignatureAlgorithms, ['ES256', 'RS256']);
  assert.not.ok('xXSSProtection' in compile(undefined).browserSecurityHeaders, "unknown version: 26's");
  assert.is(
    realmFieldDefaultsFor('25.0.6').webAuthnPolicyPasswordlessUserVerificationRequirement,
    'not specified',
  );
  assert.is(
    realmFieldDefaultsFor('26.0.0').webAuthnPolicyPasswordlessUserVerificationRequirement,
    'required',
  );
});

test.run();
