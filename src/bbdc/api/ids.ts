// Ids typed on the command line. Bitbucket's ids are Java ints or longs. bbdc keeps an id as a JavaScript number
// while that is exact (up to 2^53 - 1) and as a BigInt above it, as answers are read (core/exact-json.ts), so a
// long id goes into the path, the request body and the output as the same digits; an id past the server's own
// range is refused, never rounded to another resource's id.
import { UsageError } from '../../core/errors.ts';

/** The server's type for an id: Java int (webhooks, default-reviewer conditions) or long (the rest). */
export type IdRange = 'int32' | 'int64';

const serverMax: Record<IdRange, bigint> = { int32: 2n ** 31n - 1n, int64: 2n ** 63n - 1n };

/** An id as bbdc carries it: a number while exact, a BigInt above 2^53 - 1. */
export type Id = number | bigint;

/**
 * A positive whole-number id from `value` (a leading `#` allowed), checked as decimal text before it becomes a
 * number; `what` names it in messages (e.g. `pull request id`), `hint` says where to find valid ones.
 */
export function parseId(what: string, value: string | undefined, range: 'int32', hint: string): number;
export function parseId(what: string, value: string | undefined, range: IdRange, hint: string): Id;
export function parseId(what: string, value: string | undefined, range: IdRange, hint: string): Id {
  const text = String(value ?? '').replace(/^#/, '');
  if (!/^\d+$/.test(text) || BigInt(text) < 1n)
    throw new UsageError(`${what} "${value ?? ''}" must be a whole number such as 42; ${hint}`);
  const id = BigInt(text);
  if (id > serverMax[range])
    throw new UsageError(
      `${what} ${text} is outside the server's range (1 to ${serverMax[range]}), so no such id can exist; ${hint}`,
    );
  return id > BigInt(Number.MAX_SAFE_INTEGER) ? id : Number(text);
}
