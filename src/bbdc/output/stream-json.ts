// Lists printed while they are fetched: a command returns a LazyList where its data has an array, and --json
// writes the envelope item by item; human output and the MCP server collect it first (materialize).

import { stringifyJson } from '../../core/exact-json.ts';

/** An array whose items arrive later; typed as T[] in a command's data, and only ever read through this module. */
export class LazyList<T> {
  readonly source: AsyncIterable<T>;
  constructor(source: AsyncIterable<T>) {
    this.source = source;
  }
}

/**
 * Wraps items that will arrive as the array field of a command's data. The first item is awaited here, so errors of
 * the first request (auth, not found) surface before any output is written.
 */
export async function lazyList<T>(source: AsyncIterable<T>): Promise<T[]> {
  const iterator = source[Symbol.asyncIterator]();
  const first = await iterator.next();
  async function* replay() {
    if (first.done) return;
    yield first.value;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
  }
  return new LazyList(replay()) as unknown as T[];
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof LazyList) && !('toJSON' in v);

/** Whether writeJson has a list to stream in `value`: a LazyList, or a plain object with one among its fields. */
const holdsList = (value: unknown): boolean =>
  value instanceof LazyList || (isPlainObject(value) && Object.values(value).some(holdsList));

/**
 * Writes `value` as the JSON text JSON.stringify would give, streaming LazyLists item by item; data without one (`pr
 * get`'s) in one piece. Object fields are written in order, so a getter after a list (a count) sees the list finished.
 * `open` holds the closing brackets of what is written but not yet closed: when a list fails while it streams, the
 * caller closes them and the text stays one JSON document (partialEnvelopeEnd).
 */
export async function writeJson(
  value: unknown,
  write: (chunk: string) => Promise<void>,
  open: string[] = [],
): Promise<void> {
  if (value instanceof LazyList) {
    await write('[');
    open.push(']');
    let first = true;
    for await (const item of value.source as AsyncIterable<unknown>) {
      await write(`${first ? '' : ','}${stringifyJson(item) ?? 'null'}`);
      first = false;
    }
    open.pop();
    return write(']');
  }
  if (!isPlainObject(value) || !holdsList(value)) return write(stringifyJson(value));
  await write('{');
  open.push('}');
  let first = true;
  for (const key of Object.keys(value)) {
    const field = value[key];
    if (field === undefined || typeof field === 'function') continue;
    await write(`${first ? '' : ','}${JSON.stringify(key)}:`);
    first = false;
    await writeJson(field, write, open);
  }
  open.pop();
  return write('}');
}

/** The same data with every LazyList collected into an array (for human output, tools and tests). */
export async function materialize<T>(value: T): Promise<T> {
  if (value instanceof LazyList) {
    const items: unknown[] = [];
    for await (const item of value.source as AsyncIterable<unknown>) items.push(item);
    return items as T;
  }
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) out[key] = await materialize(value[key]);
  return out as T;
}

/** A writer that batches chunks into 64 KiB writes and waits when the stream asks it to (backpressure). */
export function bufferedWriter(
  out: { write(text: string): unknown; once?(event: 'drain', listener: () => void): unknown },
  transform: (text: string) => string = (t) => t,
) {
  let buffer = '';
  const flush = async () => {
    if (!buffer) return;
    const ok = out.write(transform(buffer));
    buffer = '';
    if (ok === false && out.once) await new Promise<void>((resolve) => out.once!('drain', resolve));
  };
  return {
    async write(chunk: string) {
      buffer += chunk;
      if (buffer.length >= 65536) await flush();
    },
    flush,
  };
}
