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
  if (typeof ms === 'number' && Number.isFinite(ms) && Math.abs(ms) <= dateLimit) return utcIso(ms);
  pending.push(
    `${field} ${JSON.stringify(ms)} is not a time JavaScript can represent; shown as the raw number`,
  );
  return String(ms);
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');

/**
 * `new Date(ms).toISOString()`, character for character (years past 9999 or before 0 as ±YYYYYY), and the same
 * RangeError for a time Date cannot hold. Read from the UTC fields: V8's toISOString loads the machine's time zone
 * on its first call (tzdata read and parsed for nothing).
 */
export function utcIso(ms: number): string {
  const d = new Date(ms);
  const y = d.getUTCFullYear();
  if (Number.isNaN(y)) throw new RangeError('Invalid time value');
  const year = y >= 0 && y <= 9999 ? pad(y, 4) : `${y < 0 ? '-' : '+'}${pad(Math.abs(y), 6)}`;
  return `${year}-${pad(d.getUTCMonth() + 1, 2)}-${pad(d.getUTCDate(), 2)}T${pad(d.getUTCHours(), 2)}:${pad(d.getUTCMinutes(), 2)}:${pad(d.getUTCSeconds(), 2)}.${pad(d.getUTCMilliseconds(), 3)}Z`;
}

/** The warnings queued since the last call, emptied. */
export function takeTimestampWarnings(): string[] {
  return pending.splice(0);
}
