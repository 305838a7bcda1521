// The output of a list command whose items are printed as their pages arrive: `{...fields, [key]: items, count,
// truncated}`, with count and truncated read (as getters) once the items have been written.
import { lazyList } from '../output/stream-json.ts';
import type { BitbucketClient, Query } from './client.ts';
import { streamPages } from './paging.ts';

/** What a streamed list command returns; `key` names the items (e.g. `repositories`). */
export type PagedOutput<F, K extends string, T> = F & { [P in K]: T[] } & {
  count: number;
  truncated: boolean;
};

/** Streams `path` from `start`, at most `limit` items, each mapped by `map`, after the given leading fields. */
export async function pagedOutput<R, T, K extends string, F extends object = object>(
  request: {
    client: BitbucketClient;
    path: string;
    query?: Query;
    limit: number | undefined;
    start?: number;
  },
  key: K,
  map: (raw: R) => T,
  fields: F = {} as F,
): Promise<PagedOutput<F, K, T>> {
  let count = 0;
  let truncated = false;
  const raw = streamPages<R>(
    request.client,
    request.path,
    request.query ?? {},
    request.limit,
    request.start,
    (t) => {
      truncated = t;
    },
  );
  async function* items() {
    for await (const r of raw) {
      count++;
      yield map(r);
    }
  }
  const output = { ...fields } as Record<string, unknown>;
  output[key] = await lazyList(items());
  Object.defineProperty(output, 'count', { enumerable: true, get: () => count });
  Object.defineProperty(output, 'truncated', { enumerable: true, get: () => truncated });
  return output as PagedOutput<F, K, T>;
}
