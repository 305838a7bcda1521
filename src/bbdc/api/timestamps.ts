// Bitbucket sends times as milliseconds since the epoch. JavaScript's Date covers ±8.64e15 ms; a value outside it
// (or not a number) would throw "Invalid time value" from toISOString and lose a whole answer over one field.

const pending: string[] = [];

/** The largest magnitude Date accepts, in milliseconds. */
const dateLimit = 8.64e15;

/**
 * An ISO 8601 time for `ms`, undefined when absent; a number outside Date's range is kept as its decimal text
 * and a warning naming `field` is queued for the run to print (see takeTimestampWarnings).
 */
export function isoTime(ms: unknown, field: string): string | undefined {
  if (ms === undefined || ms === null) return undefined;
  if (typeof ms === 'number' && Number.isFinite(ms) && Math.abs(ms) <= dateLimit)
    return new Date(ms).toISOString();
  pending.push(
    `${field} ${JSON.stringify(ms)} is not a time JavaScript can represent; shown as the raw number`,
  );
  return String(ms);
}

/** The warnings queued since the last call, emptied. */
export function takeTimestampWarnings(): string[] {
  return pending.splice(0);
}
