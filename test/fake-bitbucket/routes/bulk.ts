// Routes for the settings bulk apply writes that no command routes yet: updating a required-builds merge
// check. Repository permissions are served by routes/permissions.ts (core-state grants).
import { opsState } from '../ops-state.ts';
import {
  bitbucketError,
  type Route,
  type RouteContext,
  type RouteResult,
  type RouteTable,
} from '../route-types.ts';
import { adminScope, isError, type RouteScope } from './scope.ts';

const validation = 'com.atlassian.bitbucket.validation.ArgumentValidationException';

/** A route on a repository the caller administers. */
function adminRoute(handle: (ctx: RouteContext, scope: RouteScope) => RouteResult): Route {
  return {
    auth: 'required',
    handle(ctx) {
      const scope = adminScope(ctx);
      return isError(scope) ? scope : handle(ctx, scope);
    },
  };
}

/** Required-builds updates of repositories (default tasks are served by routes/default-tasks.ts). */
export const bulkRoutes: RouteTable = {
  updateRequiredBuildsMergeCheck: adminRoute((ctx, scope) => {
    const check = opsState(ctx.state).requiredBuilds.find(
      (c) => c.repo === scope.id && c.id === Number(ctx.params.id),
    );
    if (!check)
      return bitbucketError(
        404,
        `No required builds merge check ${ctx.params.id}.`,
        'com.atlassian.bitbucket.NoSuchEntityException',
      );
    const b = (ctx.body ?? {}) as { buildParentKeys?: string[] };
    if (!Array.isArray(b.buildParentKeys) || !b.buildParentKeys.length)
      return bitbucketError(400, 'buildParentKeys: At least one build parent key is required.', validation);
    Object.assign(check, ctx.body);
    const { repo: _repo, ...body } = check;
    return { status: 200, body };
  }),
};
