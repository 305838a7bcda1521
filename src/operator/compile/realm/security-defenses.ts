// Keycloak's Security defenses tab: browser security headers and brute-force detection.
// Headers are one map in Keycloak (stored as realm attributes); the spec's headers are sent merged over Keycloak's
// defaults, so the map is compared whole and a header removed from the spec goes back to its default.
import { defined, type Fields, type RealmSpec } from './section.ts';

/** Keycloak's default browser security headers (what a new realm has). */
export const defaultHeaders: Readonly<Record<string, string>> = {
  contentSecurityPolicy: "frame-src 'self'; frame-ancestors 'self'; object-src 'none';",
  contentSecurityPolicyReportOnly: '',
  xContentTypeOptions: 'nosniff',
  xRobotsTag: 'none',
  xFrameOptions: 'SAMEORIGIN',
  strictTransportSecurity: 'max-age=31536000; includeSubDomains',
  referrerPolicy: 'no-referrer',
};

/** Keycloak 25 still sends X-XSS-Protection by default. */
export const securityDefensesDefaults25: Fields = {
  browserSecurityHeaders: { ...defaultHeaders, xXSSProtection: '1; mode=block' },
};

export const securityDefensesDefaults: Fields = {
  browserSecurityHeaders: defaultHeaders,
  bruteForceProtected: false,
  permanentLockout: false,
  maxTemporaryLockouts: 0,
  failureFactor: 30,
  waitIncrementSeconds: 60,
  maxFailureWaitSeconds: 900,
  minimumQuickLoginWaitSeconds: 60,
  quickLoginCheckMilliSeconds: 1000,
  maxDeltaTimeSeconds: 43200,
};

/** The defenses the spec sets; `defaults` is the realm defaults table of the Keycloak version in use. */
export function compileSecurityDefenses(spec: RealmSpec, defaults: Fields): Fields {
  const section = spec.securityDefenses;
  if (!section) return {};
  return defined({
    browserSecurityHeaders: section.headers
      ? { ...(defaults.browserSecurityHeaders as Fields), ...section.headers }
      : undefined,
    ...(section.bruteForceDetection ? { bruteForceProtected: true, ...section.bruteForceDetection } : {}),
  });
}
