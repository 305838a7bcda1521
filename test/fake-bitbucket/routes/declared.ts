// Routes that declare the permission Bitbucket requires for them (`permission`), and enforce it before the handler
// runs: the repository (or project) is looked up (404), then the caller's rank is checked (403).
import type { Route, RouteContext, RouteResult } from '../route-types.ts';
import type { FakeProject, FakeRepo } from '../state.ts';
import { isResult, needProject, needRepo, projectOr404, repoOr404 } from './lookup.ts';

/** What Bitbucket requires of the caller for an operation. */
export type Permission =
  | 'REPO_READ'
  | 'REPO_WRITE'
  | 'REPO_ADMIN'
  | 'PROJECT_READ'
  | 'PROJECT_ADMIN'
  | 'AUTHENTICATED';

/** A route with its required permission stated as data. */
export type DeclaredRoute = Route & { permission: Permission };

/** A repository route: 404 for an unknown or invisible repository, 403 below `permission`. */
export function repoRoute(
  permission: Permission,
  handle: (ctx: RouteContext, repo: FakeRepo) => RouteResult,
): DeclaredRoute {
  return {
    permission,
    auth: permission === 'REPO_READ' ? 'optional' : 'required',
    handle: (ctx) => {
      const r = repoOr404(ctx);
      if (isResult(r)) return r;
      const denied = permission === 'REPO_READ' ? undefined : needRepo(ctx, r, permission);
      return denied ?? handle(ctx, r);
    },
  };
}

/** A project route: 404 for an unknown project, 403 below `permission`. */
export function projectRoute(
  permission: Permission,
  handle: (ctx: RouteContext, project: FakeProject) => RouteResult,
): DeclaredRoute {
  return {
    permission,
    auth: permission === 'PROJECT_READ' ? 'optional' : 'required',
    handle: (ctx) => {
      const p = projectOr404(ctx);
      if (isResult(p)) return p;
      const denied = permission === 'PROJECT_READ' ? undefined : needProject(ctx, p, permission);
      return denied ?? handle(ctx, p);
    },
  };
}

/** A route for the caller's own account (keys, tokens): 401 when anonymous. */
export function userRoute(handle: (ctx: RouteContext) => RouteResult): DeclaredRoute {
  return { permission: 'AUTHENTICATED', auth: 'required', handle };
}
