import { RealmforgeError } from '../../core/errors.ts';
import type { BitbucketClient, Query } from './client.ts';
import { collectAfter, collectBetweenPages, holdYoungGeneration } from './page-memory.ts';

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

/**
 * Where the page is in an answer: the answer itself for most lists; a part of it where the answer wraps the page
 * (a directory's `children`, a file's `lines`). It may throw for an answer that is not a page of what was asked.
 */
export type PageOf<T> = (answer: unknown) => Page<T> | T[] | undefined;

/** The largest page Bitbucket serves. */
export const maxPageSize = 1000;

/** Collects items across pages from `from` (default 0), at most 1,000 per page and never more than `limit` in total. */
export async function collectPages<T>(
  client: BitbucketClient,
  path: string,
  query: Query,
  limit: number | undefined,
  from = 0,
  select?: PageOf<T>,
): Promise<{ values: T[]; truncated: boolean }> {
  const values: T[] = [];
  let truncated = false;
  const onEnd = (t: boolean) => {
    truncated = t;
  };
  for await (const value of streamPages<T>(client, path, query, limit, from, onEnd, select))
    values.push(value);
  return { values, truncated };
}

/**
 * The items of `path` page after page, as they arrive, at most `limit` in total: for lists printed while they are
 * fetched (`repo list --limit 5000` holds one page, not 5,000 repositories). `onEnd` learns whether items were left.
 * A page that does not advance stops with an error naming the endpoint (nextStart).
 */
export async function* streamPages<T>(
  client: BitbucketClient,
  path: string,
  query: Query,
  limit: number | undefined,
  from = 0,
  onEnd: (truncated: boolean) => void = () => {},
  select: PageOf<T> = (answer) => answer as Page<T> | undefined,
): AsyncGenerator<T> {
  let start = from;
  let sent = 0;
  // One page at a time: the page just written is dropped before the next one is asked for (a generator keeps a
  // loop's variables alive across its awaits, so they are cleared by hand), so memory holds one page, not two.
  let page: Page<T> | T[] | undefined;
  let got: T[] | undefined;
  // A list that may take more than one page holds the young generation (set back when the list ends or is left).
  const release = limit === undefined || limit > maxPageSize ? holdYoungGeneration() : () => {};
  try {
    for (;;) {
      const remaining = limit === undefined ? maxPageSize : limit - sent;
      if (remaining <= 0) return onEnd(true);
      const collect = (got?.length ?? 0) >= collectAfter;
      page = undefined;
      got = undefined;
      const answer = client.get<unknown>(path, { ...query, start, limit: Math.min(maxPageSize, remaining) });
      // While the request is on its way, once this function has paused at the await below: a collection from here
      // would still see the page before in this frame's registers.
      if (collect) queueMicrotask(collectBetweenPages);
      page = select(await answer);
      // A page is what the document promises, but an empty answer or a bare array is read rather than crashed on.
      if (!page || typeof page !== 'object') return onEnd(false);
      got = Array.isArray(page) ? (page as T[]) : Array.isArray(page.values) ? page.values : [];
      const count = Math.min(got.length, remaining);
      for (let i = 0; i < count; i++) {
        sent++;
        yield got[i];
      }
      const next = Array.isArray(page) ? undefined : nextStart(page, start, path);
      if (next === undefined) return onEnd(got.length > remaining);
      if (limit !== undefined && sent >= limit) return onEnd(true);
      start = next;
    }
  } finally {
    release();
  }
}

/**
 * The items of a list whose operation the 9.4 document declares without start/limit (e.g. a repository's labels):
 * one request without paging parameters. A page, a bare array or nothing is read; a page that says more items
 * follow cannot be honoured without sending undeclared parameters, so it is refused rather than cut short.
 */
export async function readUnpaged<T>(client: BitbucketClient, path: string, query: Query = {}): Promise<T[]> {
  const page = await client.get<Page<T> | T[] | undefined>(path, query);
  if (!page || typeof page !== 'object') return [];
  if (Array.isArray(page)) return page;
  if (page.isLastPage === false)
    throw new RealmforgeError(
      'internal',
      `GET ${path} answered ${(page.values ?? []).length} items and isLastPage false, but the Bitbucket 9.4 API declares no paging for it: bbdc will not show a partial list; report this to the bbdc maintainers`,
    );
  return Array.isArray(page.values) ? page.values : [];
}
