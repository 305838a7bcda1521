// Shorthands for routes on a repository, a project or the caller's own account. The permission a route needs is
// declared as data on the route and checked by the server before the handler runs (route-types.ts, the same
// check for every route); a read needs none beyond seeing the repository or project (404 otherwise).
import type { Permission, Route, RouteContext, RouteResult } from '../route-types.ts';
import type { FakeProject, FakeRepo } from '../state.ts';
import { isResult, projectOr404, repoOr404 } from './lookup.ts';

/** A route together with its declared permission (none for reads). */
export type DeclaredRoute = Route;

const readOnly = (p: Permission) => p === 'REPO_READ' || p === 'PROJECT_READ';

/** A repository route: 404 for an unknown or invisible repository; the server checks `permission` first. */
export function repoRoute(
  permission: Permission,
  handle: (ctx: RouteContext, repo: FakeRepo) => RouteResult,
): Route {
  return {
    ...(readOnly(permission) ? {} : { permission }),
    auth: readOnly(permission) ? 'optional' : 'required',
    handle: (ctx) => {
      const r = repoOr404(ctx);
      return isResult(r) ? r : handle(ctx, r);
    },
  };
}

/** A project route: 404 for an unknown project; the server checks `permission` first. */
export function projectRoute(
  permission: Permission,
  handle: (ctx: RouteContext, project: FakeProject) => RouteResult,
): Route {
  return {
    ...(readOnly(permission) ? {} : { permission }),
    auth: readOnly(permission) ? 'optional' : 'required',
    handle: (ctx) => {
      const p = projectOr404(ctx);
      return isResult(p) ? p : handle(ctx, p);
    },
  };
}

/** A route for the caller's own account (keys, tokens): 401 when anonymous. */
export function userRoute(handle: (ctx: RouteContext) => RouteResult): Route {
  return { auth: 'required', handle };
}
