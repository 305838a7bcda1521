import { RealmforgeError } from '../../core/errors.ts';
import { parseJson } from '../../core/exact-json.ts';
import type { BitbucketClient, Query } from './client.ts';
import { PageScanner } from './page-scanner.ts';
import { TransportError } from './transport-types.ts';

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
export function nextStart<T>(
  page: Omit<Page<T>, 'values'> & { values?: T[] },
  start: number,
  path: string,
  items = (page.values ?? []).length,
): number | undefined {
  if (page.isLastPage || page.nextPageStart === undefined || items === 0) return undefined;
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
 * fetched (`repo list --limit 5000` holds one item at a time, not 5,000 repositories). `onEnd` learns whether items
 * were left. A page that does not advance stops with an error naming the endpoint (nextStart). Without `select`,
 * each page is read as its bytes arrive (readPage); with it, or with a client that cannot stream, whole.
 */
export async function* streamPages<T>(
  client: BitbucketClient,
  path: string,
  query: Query,
  limit: number | undefined,
  from = 0,
  onEnd: (truncated: boolean) => void = () => {},
  select?: PageOf<T>,
): AsyncGenerator<T> {
  let start = from;
  let sent = 0;
  let resumed = 0;
  for (;;) {
    const remaining = limit === undefined ? maxPageSize : limit - sent;
    if (remaining <= 0) return onEnd(true);
    const q = { ...query, start, limit: Math.min(maxPageSize, remaining) };
    // What the page said beside its items, and how many it had; undefined for an answer that was no page.
    let page: PageEnd | undefined;
    const read =
      client.stream && !select
        ? readPage<T>(client, path, q, remaining)
        : readWhole(client, path, q, remaining, select);
    let given = 0;
    try {
      for await (const item of read((end) => (page = end))) {
        sent++;
        given++;
        yield item;
      }
    } catch (error) {
      // A connection lost inside a page: the items given stay given and the page is asked for again from the
      // first one not given (Bitbucket's start is an offset), within the client's retries, as a lost page read
      // whole was asked for again before pages streamed.
      if (!(error instanceof PageCutError) || resumed >= (client.retries ?? 0)) throw error;
      resumed++;
      start += given;
      continue;
    }
    if (page === undefined) return onEnd(false);
    const { fields, items } = page as PageEnd;
    const next = nextStart(fields, start, path, items);
    if (next === undefined) return onEnd(items > remaining);
    if (limit !== undefined && sent >= limit) return onEnd(true);
    start = next;
  }
}

/** The connection was lost while a page's body arrived (streamPages asks again from the next item). */
class PageCutError extends RealmforgeError {
  constructor(cause: TransportError) {
    super('transient', `${cause.message} while the page was read`, { cause });
  }
}

/** What a page said beside its items (isLastPage, nextPageStart), and how many items it had. */
type PageEnd = { fields: Omit<Page<unknown>, 'values'>; items: number };

/**
 * The items of an answer read whole, at most `max`; `done` gets the page's fields first, without its items (only they
 * are kept once the items are given). A page is what the document promises, but a bare array is read as its items
 * and an answer that is no object as none, rather than crashed on.
 */
function* itemsOf<T>(answer: unknown, max: number, done: (end: PageEnd) => void): Generator<T> {
  if (!answer || typeof answer !== 'object') return;
  const page = answer as Page<T> | T[];
  const got = Array.isArray(page) ? page : Array.isArray(page.values) ? page.values : [];
  const { isLastPage, nextPageStart, size, limit, start } = Array.isArray(page) ? ({} as Page<T>) : page;
  done({ fields: { isLastPage, nextPageStart, size, limit, start }, items: got.length });
  yield* got.slice(0, max);
}

/** One page read whole with `get` (and `select`), its items at most `max` (itemsOf). */
function readWhole<T>(client: BitbucketClient, path: string, query: Query, max: number, select?: PageOf<T>) {
  return async function* (done: (end: PageEnd) => void): AsyncGenerator<T> {
    const answer = await client.get<unknown>(path, query);
    yield* itemsOf<T>(select ? select(answer) : answer, max, done);
  };
}

/**
 * One page's items as its body arrives (page-scanner.ts), at most `max` of them; the rest of the page is still
 * read, for the fields after its items. `done` gets the page's fields and item count; it is not called for an answer
 * that is no object (a bare array gives its items and count with no fields, as a whole answer would).
 */
function readPage<T>(client: BitbucketClient, path: string, query: Query, max: number) {
  return async function* (done: (end: PageEnd) => void): AsyncGenerator<T> {
    const body = await (client.stream as NonNullable<BitbucketClient['stream']>)(path, query);
    const scanner = new PageScanner();
    let given = 0;
    try {
      for await (const chunk of body)
        for (const text of scanner.push(chunk))
          if (given < max) {
            given++;
            yield parseJson(text) as T;
          }
    } catch (error) {
      if (error instanceof TransportError) throw new PageCutError(error);
      throw error;
    }
    let rest: string | undefined;
    try {
      rest = scanner.end();
    } catch (error) {
      throw new RealmforgeError('transient', `GET ${path}: ${(error as Error).message}`, { cause: error });
    }
    if (rest === undefined)
      return done({ fields: scanner.fields as PageEnd['fields'], items: scanner.items });
    // Not an object: read as a whole answer is (text that is not JSON, or nothing, ends the list).
    let answer: unknown;
    try {
      answer = rest ? parseJson(rest) : undefined;
    } catch {
      return;
    }
    yield* itemsOf<T>(answer, max, done);
  };
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
