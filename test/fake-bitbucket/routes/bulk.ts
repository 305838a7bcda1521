// Routes for the settings bulk apply writes that no command routes yet: default tasks and updating a
// required-builds merge check. Repository permissions are served by routes/permissions.ts (core-state grants).
import { bulkState, type FakeDefaultTask } from '../bulk-state.ts';
import { type FakeRequiredBuilds, opsState } from '../ops-state.ts';
import {
  bitbucketError,
  page,
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

type Matcher = FakeDefaultTask['sourceMatcher'];
const taskJson = ({ repo: _repo, ...t }: FakeDefaultTask) => t;
function taskBody(ctx: RouteContext): RouteResult | Omit<FakeDefaultTask, 'id' | 'repo'> {
  const b = (ctx.body ?? {}) as { description?: string; sourceMatcher?: Matcher; targetMatcher?: Matcher };
  if (!b.description) return bitbucketError(400, 'description: A description is required.', validation);
  if (!b.sourceMatcher?.type?.id || !b.targetMatcher?.type?.id)
    return bitbucketError(400, 'sourceMatcher and targetMatcher are required.', validation);
  return { description: b.description, sourceMatcher: b.sourceMatcher, targetMatcher: b.targetMatcher };
}

/** Default tasks and required-builds updates of repositories. */
export const bulkRoutes: RouteTable = {
  getDefaultTasks_1: adminRoute((ctx, scope) =>
    page(
      bulkState(ctx.state)
        .defaultTasks.filter((t) => t.repo === scope.id)
        .map(taskJson),
      ctx.query,
    ),
  ),
  addDefaultTask_1: adminRoute((ctx, scope) => {
    const body = taskBody(ctx);
    if ('status' in body) return body;
    const s = bulkState(ctx.state);
    const task = { id: s.nextId++, repo: scope.id, ...body };
    s.defaultTasks.push(task);
    return { status: 200, body: taskJson(task) };
  }),
  updateDefaultTask_1: adminRoute((ctx, scope) => {
    const body = taskBody(ctx);
    if ('status' in body) return body;
    const task = bulkState(ctx.state).defaultTasks.find(
      (t) => t.repo === scope.id && t.id === Number(ctx.params.taskId),
    );
    if (!task)
      return bitbucketError(
        404,
        `No default task ${ctx.params.taskId}.`,
        'com.atlassian.bitbucket.NoSuchEntityException',
      );
    Object.assign(task, body);
    return { status: 200, body: taskJson(task) };
  }),
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
    const b = (ctx.body ?? {}) as Partial<FakeRequiredBuilds>;
    if (!Array.isArray(b.buildParentKeys) || !b.buildParentKeys.length)
      return bitbucketError(400, 'buildParentKeys: At least one build parent key is required.', validation);
    if (!b.refMatcher?.id) return bitbucketError(400, 'refMatcher: A ref matcher is required.', validation);
    // A PUT replaces the check (RestRequiredBuildConditionSetRequest): an exemption left out is erased.
    Object.assign(check, {
      buildParentKeys: b.buildParentKeys,
      refMatcher: b.refMatcher,
      exemptRefMatcher: b.exemptRefMatcher,
    });
    const { repo: _repo, ...body } = check;
    return { status: 200, body };
  }),
};
