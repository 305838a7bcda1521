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

/** JSON.parse, with integers beyond 2^53 - 1 kept as BigInt. */
export function parseJson(text: string): unknown {
  return JSON.parse(text, exact as (key: string, value: unknown) => unknown);
}

const rawJson = (JSON as unknown as { rawJSON(text: string): unknown }).rawJSON;

/** JSON.stringify, with a BigInt written as its digits. */
export function stringifyJson(value: unknown, space?: number): string {
  return JSON.stringify(value, (_key, v) => (typeof v === 'bigint' ? rawJson(String(v)) : v), space);
}
