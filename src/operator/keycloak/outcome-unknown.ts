// A write whose answer was lost (a timeout, a reset connection, a 5xx from a proxy after the request left):
// Keycloak may or may not have applied it. Whoever sent it reads the object back by its natural key before
// sending anything again (crossplane-runtime's "external-create-pending"), so a lost answer never duplicates.
import { RealmforgeError } from '../../core/errors.ts';

/** Thrown by the admin client for a non-idempotent write (POST) whose outcome is unknown; never retried blindly. */
export class OutcomeUnknownError extends RealmforgeError {
  constructor(method: string, path: string, reason: string) {
    super(
      'transient',
      `Keycloak ${method} ${path}: the answer was lost (${reason}); it is read back before anything is sent again`,
    );
    this.name = 'OutcomeUnknownError';
  }
}
