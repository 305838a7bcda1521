import type { BitbucketClient, Query } from './client.ts';
import { maxPageSize, nextStart, type Page } from './paging.ts';

/** Collects the items that pass `keep` across pages until `limit` of them are found or the pages end. */
export async function collectMatching<T>(
  client: BitbucketClient,
  path: string,
  query: Query,
  limit: number,
  keep: (item: T) => boolean,
): Promise<{ values: T[]; truncated: boolean }> {
  const values: T[] = [];
  let start = 0;
  for (;;) {
    const page = await client.get<Page<T>>(path, {
      ...query,
      start,
      limit: Math.min(maxPageSize, limit + 1),
    });
    for (const item of Array.isArray(page?.values) ? page.values : []) {
      if (!keep(item)) continue;
      if (values.length === limit) return { values, truncated: true };
      values.push(item);
    }
    const next = nextStart(page, start, path);
    if (next === undefined) return { values, truncated: false };
    start = next;
  }
}
