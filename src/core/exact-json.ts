// JSON with integers kept exact. Bitbucket's ids are Java longs; a JavaScript number is exact only up to 2^53 - 1,
// so JSON.parse would round a larger id to another resource's. parseJson keeps an integer beyond that range as a
// BigInt (from its source text), and stringifyJson writes a BigInt back as the same digits, so an id goes from the
// server's answer to bbdc's output and to the next request unchanged. Every other value is as JSON.parse gives it.

type ReviverContext = { source?: string };

const exact = (_key: string, value: unknown, context?: ReviverContext) =>
  typeof value === 'number' &&
  !Number.isSafeInteger(value) &&
  context?.source !== undefined &&
  /^-?\d+$/.test(context.source)
    ? BigInt(context.source)
    : value;

// An integer beyond 2^53 - 1 has at least 16 digits, and a number in JSON text starts the text or follows a colon, a
// comma or a bracket (and spaces). Text without such a run of 16 digits has none, and is parsed without the reviver:
// a reviver that reads source text makes V8 keep each value's source and call back for every value, a cost most
// answers need not pay. A run inside a string (a commit id of digits) is not one; one that follows a colon inside a
// string only costs the slower path.
const mayHoldLongInteger = /(?:^|[:,[])\s*-?\d{16}/;

/** JSON.parse, with integers beyond 2^53 - 1 kept as BigInt. */
export function parseJson(text: string): unknown {
  if (!mayHoldLongInteger.test(text)) return JSON.parse(text);
  return JSON.parse(text, exact as (key: string, value: unknown) => unknown);
}

const rawJson = (JSON as unknown as { rawJSON(text: string): unknown }).rawJSON;

/** JSON.stringify, with a BigInt written as its digits. */
export function stringifyJson(value: unknown, space?: number): string {
  // Without a replacer first: JSON.stringify throws a TypeError at a BigInt, and only then is the replacer (called
  // for every value, a few MB of garbage on a 5,000-item list) needed. A circular value throws a TypeError both ways.
  try {
    return JSON.stringify(value, undefined, space);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
  }
  return JSON.stringify(value, (_key, v) => (typeof v === 'bigint' ? rawJson(String(v)) : v), space);
}
