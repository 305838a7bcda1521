import type { BitbucketClient, Query } from './client.ts';

/** One page as Bitbucket returns it. */
export type Page<T> = {
  values: T[];
  size: number;
  limit: number;
  start: number;
  isLastPage: boolean;
  nextPageStart?: number;
};

/** The largest page Bitbucket serves. */
export const maxPageSize = 1000;

/** Collects items across pages from `from` (default 0), at most 1,000 per page and never more than `limit` in total. */
export async function collectPages<T>(
  client: BitbucketClient,
  path: string,
  query: Query,
  limit: number | undefined,
  from = 0,
): Promise<{ values: T[]; truncated: boolean }> {
  const values: T[] = [];
  let start = from;
  for (;;) {
    const remaining = limit === undefined ? maxPageSize : limit - values.length;
    if (remaining <= 0) return { values, truncated: true };
    const page = await client.get<Page<T>>(path, {
      ...query,
      start,
      limit: Math.min(maxPageSize, remaining),
    });
    values.push(...page.values.slice(0, remaining));
    if (page.isLastPage || page.nextPageStart === undefined || page.values.length === 0) {
      return { values, truncated: page.values.length > remaining };
    }
    if (limit !== undefined && values.length >= limit) return { values, truncated: true };
    start = page.nextPageStart;
  }
}
