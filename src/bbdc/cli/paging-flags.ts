import { UsageError } from '../../core/errors.ts';
import type { FlagSpec } from '../command.ts';

/** Parses a positive whole number flag, naming the flag when it is not one. */
export function positiveInt(value: unknown, flag: string, fallback: number): number {
  if (value === undefined) return fallback;
  const text = String(value);
  if (!/^\d+$/.test(text) || Number(text) < 1)
    throw new UsageError(`${flag} "${text}" must be a whole number of at least 1`);
  return Number(text);
}

/** Parses a whole number flag that may be 0, such as --start. */
export function wholeNumber(value: unknown, flag: string): number {
  if (value === undefined) return 0;
  const text = String(value);
  if (!/^\d+$/.test(text)) throw new UsageError(`${flag} "${text}" must be a whole number, e.g. 0 or 100`);
  return Number(text);
}

/** `--limit`: at most that many of `what`. */
export function limitFlag(what: string, defaultLimit: number): FlagSpec {
  return {
    type: 'string',
    shortFlag: 'L',
    value: 'N',
    description: `Maximum number of ${what} (default ${defaultLimit})`,
  };
}

/** `--limit` (caps the total) and `--start` (the first item's offset) for a listing of `what`. */
export function pagingFlags(what: string, defaultLimit: number): Record<string, FlagSpec> {
  return {
    limit: limitFlag(`${what} in total`, defaultLimit),
    start: { type: 'string', value: 'N', description: `Skip the first N ${what} (default 0)` },
  };
}

/** The --limit and --start values of a listing. */
export function parsePaging(flags: Record<string, unknown>, defaultLimit: number) {
  return {
    limit: positiveInt(flags.limit, '--limit', defaultLimit),
    start: wholeNumber(flags.start, '--start'),
  };
}
