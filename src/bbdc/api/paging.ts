import { RealmforgeError } from '../../core/errors.ts';
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

/**
 * Where the page after `page` (asked for at `start`) begins, or undefined when it was the last one. A server whose
 * `nextPageStart` does not move forward would be asked for the same page forever: that stops with an error naming
 * the endpoint. Since every start is larger than the one before, no loop can revisit a page.
 */
export function nextStart<T>(page: Page<T>, start: number, path: string): number | undefined {
  if (page.isLastPage || page.nextPageStart === undefined || (page.values ?? []).length === 0)
    return undefined;
  const next = page.nextPageStart;
  if (!Number.isSafeInteger(next) || next <= start)
    throw new RealmforgeError(
      'internal',
      `GET ${path} answered a page at start ${start} whose nextPageStart is ${JSON.stringify(next)}: paging would never end, so bbdc stopped; report this to the server's administrators`,
    );
  return next;
}

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
    // A page is what the document promises, but an empty answer or a bare array is read rather than crashed on.
    if (Array.isArray(page))
      return { values: [...values, ...page.slice(0, remaining)], truncated: page.length > remaining };
    if (!page || typeof page !== 'object') return { values, truncated: false };
    const got = Array.isArray(page.values) ? page.values : [];
    values.push(...got.slice(0, remaining));
    const next = nextStart(page, start, path);
    if (next === undefined) return { values, truncated: got.length > remaining };
    if (limit !== undefined && values.length >= limit) return { values, truncated: true };
    start = next;
  }
}
