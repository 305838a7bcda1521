// An error that a person must fix, carrying the status it should show: its phase and reason. Controllers report
// it on status and look again at the next drift interval instead of retrying with backoff.
import { type ErrorKind, RealmforgeError } from '../../../core/errors.ts';
import type { Phase } from './resource-status.ts';

/** A problem reported on status as `phase` with `reason` (for example Failed/ClientIdConflict). */
export class StuckError extends RealmforgeError {
  readonly phase: Phase;
  readonly reason: string;
  constructor(
    kind: ErrorKind,
    phase: Phase,
    reason: string,
    message: string,
    options: { cause?: unknown } = {},
  ) {
    super(kind, message, options);
    this.phase = phase;
    this.reason = reason;
  }
}
