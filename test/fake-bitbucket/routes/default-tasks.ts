// Default tasks of projects (listed by readers, managed by PROJECT_ADMIN), and deleting a repository's default task
// (REPO_ADMIN). The repository's list, add and update routes live in bulk.ts, on the same store (bulk-state.ts).
import { bulkState } from '../bulk-state.ts';
import { bitbucketError, page, type RouteContext, type RouteResult } from '../route-types.ts';
import type { FakeState } from '../state.ts';
import { type DeclaredRoute, projectRoute, repoRoute } from './declared.ts';

type Matcher = { id: string; displayId?: string; type: { id: string } };
type Task = { id: number; description: string; sourceMatcher: Matcher; targetMatcher: Matcher };
const store = new WeakMap<FakeState, { next: number; byScope: Map<string, Task[]> }>();
const types = ['ANY_REF', 'BRANCH', 'PATTERN', 'MODEL_CATEGORY', 'MODEL_BRANCH'];
const validation = 'com.atlassian.bitbucket.validation.ArgumentValidationException';

function tasksOf(ctx: RouteContext, scope: string): Task[] {
  const s = store.get(ctx.state) ?? { next: 1, byScope: new Map() };
  store.set(ctx.state, s);
  const list = s.byScope.get(scope) ?? [];
  s.byScope.set(scope, list);
  return list;
}

const matcherOk = (m: unknown) =>
  !m || (typeof (m as Matcher).id === 'string' && types.includes((m as Matcher).type?.id));

function routes(scopeOf: (ctx: RouteContext) => string) {
  const find = (ctx: RouteContext) =>
    tasksOf(ctx, scopeOf(ctx)).find((t) => String(t.id) === ctx.params.taskId);
  const missing = (ctx: RouteContext) =>
    bitbucketError(
      404,
      `No default task ${ctx.params.taskId}.`,
      'com.atlassian.bitbucket.defaulttask.NoSuchDefaultTaskException',
    );
  const check = (b: Partial<Task>, create: boolean): RouteResult | undefined => {
    if (create && !b.description?.trim())
      return bitbucketError(400, 'description: A task needs a description.', validation);
    if (!matcherOk(b.sourceMatcher) || !matcherOk(b.targetMatcher))
      return bitbucketError(400, `matcher type must be one of ${types.join(', ')}.`, validation);
    return undefined;
  };
  const any: Matcher = { id: 'ANY_REF_MATCHER_ID', type: { id: 'ANY_REF' } };
  return {
    list: (ctx: RouteContext) => page(tasksOf(ctx, scopeOf(ctx)), ctx.query),
    add: (ctx: RouteContext) => {
      const b = (ctx.body ?? {}) as Partial<Task>;
      const bad = check(b, true);
      if (bad) return bad;
      const s = store.get(ctx.state)!;
      const t: Task = {
        id: s.next++,
        description: b.description!,
        sourceMatcher: b.sourceMatcher ?? any,
        targetMatcher: b.targetMatcher ?? any,
      };
      tasksOf(ctx, scopeOf(ctx)).push(t);
      return { status: 200, body: t };
    },
    update: (ctx: RouteContext) => {
      const t = find(ctx);
      if (!t) return missing(ctx);
      const b = (ctx.body ?? {}) as Partial<Task>;
      const bad = check(b, false);
      if (bad) return bad;
      Object.assign(
        t,
        b.description && { description: b.description },
        b.sourceMatcher && { sourceMatcher: b.sourceMatcher },
        b.targetMatcher && { targetMatcher: b.targetMatcher },
      );
      return { status: 200, body: t };
    },
    remove: (ctx: RouteContext) => {
      const t = find(ctx);
      if (!t) return missing(ctx);
      const list = tasksOf(ctx, scopeOf(ctx));
      list.splice(list.indexOf(t), 1);
      return { status: 204 };
    },
  };
}

const project = routes((ctx) => ctx.params.projectKey.toUpperCase());

/** Routes keyed by operationId, each with the permission Bitbucket requires. */
export const defaultTaskRoutes: Record<string, DeclaredRoute> = {
  getDefaultTasks: projectRoute('PROJECT_READ', project.list),
  addDefaultTask: projectRoute('PROJECT_ADMIN', project.add),
  updateDefaultTask: projectRoute('PROJECT_ADMIN', project.update),
  deleteDefaultTask: projectRoute('PROJECT_ADMIN', project.remove),
  deleteDefaultTask_1: repoRoute('REPO_ADMIN', (ctx, repo) => {
    const s = bulkState(ctx.state);
    const i = s.defaultTasks.findIndex(
      (t) => t.repo === `${repo.projectKey}/${repo.slug}` && String(t.id) === ctx.params.taskId,
    );
    if (i < 0)
      return bitbucketError(
        404,
        `No default task ${ctx.params.taskId}.`,
        'com.atlassian.bitbucket.NoSuchEntityException',
      );
    s.defaultTasks.splice(i, 1);
    return { status: 204 };
  }),
};
