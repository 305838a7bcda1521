// Ids typed on the command line. Bitbucket's ids are Java ints or longs; bbdc keeps them as JavaScript numbers,
// which are exact only up to 2^53 - 1. An id past either limit is refused, never rounded to another resource's id.
import { UsageError } from '../../core/errors.ts';

/** The server's type for an id: Java int (webhooks, default-reviewer conditions) or long (the rest). */
export type IdRange = 'int32' | 'int64';

const serverMax: Record<IdRange, bigint> = { int32: 2n ** 31n - 1n, int64: 2n ** 63n - 1n };

/**
 * A positive whole-number id from `value` (a leading `#` allowed), checked as decimal text before it becomes a
 * number; `what` names it in messages (e.g. `pull request id`), `hint` says where to find valid ones.
 */
export function parseId(what: string, value: string | undefined, range: IdRange, hint: string): number {
  const text = String(value ?? '').replace(/^#/, '');
  if (!/^\d+$/.test(text) || BigInt(text) < 1n)
    throw new UsageError(`${what} "${value ?? ''}" must be a whole number such as 42; ${hint}`);
  const id = BigInt(text);
  if (id > serverMax[range])
    throw new UsageError(
      `${what} ${text} is outside the server's range (1 to ${serverMax[range]}), so no such id can exist; ${hint}`,
    );
  if (id > BigInt(Number.MAX_SAFE_INTEGER))
    throw new UsageError(
      `${what} ${text} is above ${Number.MAX_SAFE_INTEGER}, the largest id bbdc can send exactly; it would be rounded to a different id`,
    );
  return Number(text);
}
