// Keycloak versions compared as semver: "26.0" is 26.0.0, and a pre-release sorts below its release
// (25.0.0-rc1 < 25.0.0), so the minimum version and the downgrade rule cannot be slipped past with a suffix.
import semver from 'semver';

/** The lowest Keycloak version the operator runs (25 introduced the management port 9000). */
export const minimumKeycloakVersion = '25.0.0';

/** The semver of a Keycloak image tag, or undefined when the tag is not a version. */
export function keycloakSemver(tag: string): semver.SemVer | undefined {
  const exact = semver.parse(tag);
  if (exact) return exact;
  // Two-part tags (26.0) and four-part ones: coerce keeps a pre-release suffix when asked to.
  return semver.coerce(tag, { includePrerelease: true }) ?? undefined;
}

/** Negative, zero or positive as tag `a` is below, equal to or above tag `b` (unparseable tags compare equal). */
export function compareKeycloakVersions(a: string, b: string): number {
  const va = keycloakSemver(a);
  const vb = keycloakSemver(b);
  return va && vb ? semver.compare(va, vb) : 0;
}

/** The higher of two tags (the first when either is missing or they are equal). */
export function higherVersion(a: string | undefined, b: string | undefined): string | undefined {
  if (!a || !b) return a ?? b;
  return compareKeycloakVersions(b, a) > 0 ? b : a;
}

/** The tag of an image reference (what follows the last ':' after the last '/'). */
export function imageTag(image: string): string {
  const name = image.slice(image.lastIndexOf('/') + 1);
  const at = name.lastIndexOf(':');
  return at < 0 ? 'latest' : name.slice(at + 1);
}
