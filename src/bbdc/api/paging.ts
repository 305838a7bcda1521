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

/**
 * The items of `path` page after page, as they arrive, at most `limit` in total: for lists printed while they are
 * fetched (`repo list --limit 5000` holds one page, not 5,000 repositories). `onEnd` learns whether items were left.
 * A page that does not advance (nextPageStart not past its start) ends the list rather than looping forever.
 */
export async function* streamPages<T>(
  client: BitbucketClient,
  path: string,
  query: Query,
  limit: number | undefined,
  from = 0,
  onEnd: (truncated: boolean) => void = () => {},
): AsyncGenerator<T> {
  let start = from;
  let sent = 0;
  for (;;) {
    const remaining = limit === undefined ? maxPageSize : limit - sent;
    if (remaining <= 0) return onEnd(true);
    const page = await client.get<Page<T>>(path, {
      ...query,
      start,
      limit: Math.min(maxPageSize, remaining),
    });
    for (const value of page.values.slice(0, remaining)) {
      sent++;
      yield value;
    }
    const last = page.isLastPage || page.nextPageStart === undefined || page.values.length === 0;
    if (last || page.nextPageStart! <= start) return onEnd(page.values.length > remaining);
    if (limit !== undefined && sent >= limit) return onEnd(true);
    start = page.nextPageStart!;
  }
}
