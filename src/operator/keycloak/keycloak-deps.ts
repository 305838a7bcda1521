// What the realm and client controllers need besides the common Deps: the admin clients and the drift interval.
import type { Deps } from '../runtime/deps.ts';
import type { KeycloakAdmins } from './admins.ts';
import type { ChangeDetection } from './change-detection.ts';

/** The common dependencies plus Keycloak access. */
export type KeycloakDeps = Deps & {
  readonly admins: KeycloakAdmins;
  /** How often a Ready realm or client is compared with Keycloak again (--drift-interval). */
  readonly driftIntervalMs: number;
  /** How long a deletion keeps trying to clean up in a Keycloak that does not answer before it lets go. */
  readonly cleanupGiveUpMs?: number;
  /** How often an LDAP provider's connection test and an identity provider's discovery read run again when
   * nothing about them changed and they passed (default: 30 minutes, never under the drift interval). */
  readonly federationCheckIntervalMs?: number;
  /** Whether a realm changed since a clean resync (change-detection.ts); absent: every resync reads everything. */
  readonly changes?: ChangeDetection;
};
