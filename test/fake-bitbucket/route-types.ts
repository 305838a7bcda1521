import type { FakeState, FakeUser } from './state.ts';

/** What a route handler gets: path and query parameters, the JSON body, the caller and the data. */
export type RouteContext = {
  params: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
  user: FakeUser | undefined;
  state: FakeState;
  baseUrl: string;
  sshHost: string;
};

/** A handler's answer; `body` is sent as JSON, `raw` (a file's content) as the exact bytes. */
export type RouteResult = { status: number; body?: unknown; raw?: Buffer; headers?: Record<string, string> };

/** A permission Bitbucket checks on the repository or project a path names. */
export type Permission =
  | 'REPO_READ'
  | 'REPO_WRITE'
  | 'REPO_ADMIN'
  | 'PROJECT_READ'
  | 'PROJECT_WRITE'
  | 'PROJECT_ADMIN';

/**
 * A route: `auth: 'required'` answers 401 to anonymous callers before the handler runs; `permission` answers 401
 * (AuthorisationException, as Bitbucket's REST API does) to callers without it on the path's repository or project.
 */
export type Route = {
  auth: 'required' | 'optional';
  permission?: Permission;
  handle(ctx: RouteContext): RouteResult;
};

/** Routes keyed by OpenAPI operationId. */
export type RouteTable = Record<string, Route>;

/** A Bitbucket error answer. */
export function bitbucketError(
  status: number,
  message: string,
  exceptionName = 'com.atlassian.bitbucket.ServiceException',
): RouteResult {
  return { status, body: { errors: [{ context: null, message, exceptionName }] } };
}

/** One page of `items` by Bitbucket's start/limit rules (default 25, at most 1000). */
export function page<T>(items: T[], query: URLSearchParams): RouteResult {
  const start = Math.max(0, Number(query.get('start') ?? 0) || 0);
  const limit = Math.min(1000, Math.max(1, Number(query.get('limit') ?? 25) || 25));
  const values = items.slice(start, start + limit);
  const isLastPage = start + values.length >= items.length;
  const body: Record<string, unknown> = { size: values.length, limit, isLastPage, values, start };
  if (!isLastPage) body.nextPageStart = start + values.length;
  return { status: 200, body };
}
