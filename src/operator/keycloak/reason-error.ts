// A Keycloak problem that retrying does not fix and a person must (a token too large for Keycloak's headers, the
// operator's own identity lost): realms and clients show it as Provisioning with its reason and look again every
// drift interval instead of retrying with backoff as "KeycloakUnavailable".
import { type ErrorKind, RealmforgeError } from '../../core/errors.ts';

/** An error with the status reason it is shown under. */
export class KeycloakReasonError extends RealmforgeError {
  readonly reason: string;
  constructor(kind: ErrorKind, reason: string, message: string, options: { cause?: unknown } = {}) {
    super(kind, message, options);
    this.reason = reason;
  }
}
