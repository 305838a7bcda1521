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

/**
 * Sends a create through `send`; when its outcome is unknown, reads back by natural key with `readBack` before
 * anything else. Found: the create happened, and that is the answer. Not found: the error stands, and the next
 * reconcile creates it; Keycloak refuses a second realm or client with the same natural key (409), and a 409 is
 * read back the same way.
 */
export async function createReadingBack<T, F>(
  send: () => Promise<T>,
  readBack: () => Promise<F | undefined>,
): Promise<{ created: T } | { found: F }> {
  try {
    return { created: await send() };
  } catch (error) {
    if (!(error instanceof OutcomeUnknownError)) throw error;
    const found = await readBack();
    if (found === undefined) throw error;
    return { found };
  }
}
