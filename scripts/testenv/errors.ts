// The errors the test environment raises: each says what failed, why, and what to do.
import { RealmforgeError } from '../../src/core/errors.ts';

/** A tool the environment needs (Go, Java, Maven, PostgreSQL) is missing; the message says how to install it. */
export class MissingToolError extends RealmforgeError {
  constructor(message: string) {
    super('usage', message);
    this.name = 'MissingToolError';
  }
}

/** A component did not come up or a build step failed; details hold its command and last log lines. */
export class ComponentError extends RealmforgeError {
  constructor(message: string, details: readonly string[] = []) {
    super('transient', message, { details });
    this.name = 'ComponentError';
  }
}
