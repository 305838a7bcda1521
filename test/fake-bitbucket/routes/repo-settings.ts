// Routes for repository settings: pull requests (with the required-approvers deviation), auto-merge,
// auto-decline, reviewer groups and default reviewers (bbdc repo settings ...).
import {
  type FakeDefaultReviewers,
  type FakePrSettings,
  type FakeRefMatcher,
  opsState,
} from '../ops-state.ts';
import {
  bitbucketError,
  page,
  type Route,
  type RouteContext,
  type RouteResult,
  type RouteTable,
} from '../route-types.ts';
import { adminScope, findScope, isError, type RouteScope } from './scope.ts';

const validation = 'com.atlassian.bitbucket.validation.ArgumentValidationException';
const strategyNames: Record<string, string> = {
  'no-ff': 'Merge commit',
  ff: 'Fast-forward',
  'ff-only': 'Fast-forward only',
  'rebase-no-ff': 'Rebase and merge',
  'rebase-ff-only': 'Rebase and fast-forward',
  squash: 'Squash',
  'squash-ff-only': 'Squash, fast-forward only',
};
const defaults: FakePrSettings = {
  defaultStrategy: 'no-ff',
  strategies: ['no-ff'],
  requiredApprovers: 0,
  requiredAllApprovers: false,
  requiredAllTasksComplete: false,
  requiredSuccessfulBuilds: 0,
};

/** A route on an existing scope; `admin` routes also need REPO_ADMIN. */
function scoped(admin: boolean, handle: (ctx: RouteContext, scope: RouteScope) => RouteResult): Route {
  return {
    auth: admin ? 'required' : 'optional',
    handle(ctx) {
      const scope = admin ? adminScope(ctx) : findScope(ctx);
      return isError(scope) ? scope : handle(ctx, scope);
    },
  };
}

function prSettingsJson(ctx: RouteContext, scope: RouteScope) {
  const ops = opsState(ctx.state);
  const own = ops.prSettings[scope.id];
  const s = own ?? defaults;
  const approvers =
    ops.requiredApproversForm === 'integer'
      ? s.requiredApprovers
      : { enabled: s.requiredApprovers > 0, count: String(s.requiredApprovers) };
  return {
    mergeConfig: {
      defaultStrategy: { id: s.defaultStrategy, name: strategyNames[s.defaultStrategy], enabled: true },
      strategies: s.strategies.map((id) => ({ id, name: strategyNames[id], enabled: true })),
      type: own ? 'REPOSITORY' : 'DEFAULT',
      commitSummaries: 20,
    },
    requiredAllApprovers: s.requiredAllApprovers,
    requiredAllTasksComplete: s.requiredAllTasksComplete,
    requiredApprovers: approvers,
    requiredSuccessfulBuilds: s.requiredSuccessfulBuilds,
  };
}

/** Applies a settings update, answering like an `integer` or `object` server to the required-approvers field. */
function updatePrSettings(ctx: RouteContext, scope: RouteScope): RouteResult {
  const ops = opsState(ctx.state);
  const body = (ctx.body ?? {}) as Record<string, unknown>;
  const next: FakePrSettings = { ...(ops.prSettings[scope.id] ?? defaults) };
  const approvers = body.requiredApprovers;
  if (approvers !== undefined) {
    if (typeof approvers === 'number' && Number.isInteger(approvers) && approvers >= 0)
      next.requiredApprovers = approvers;
    else if (approvers && typeof approvers === 'object' && ops.requiredApproversForm === 'object') {
      const o = approvers as { enabled?: boolean; count?: string | number };
      next.requiredApprovers = o.enabled ? Number(o.count) : 0;
    } else
      return bitbucketError(
        400,
        'Cannot deserialize value of type `int` from Object value (token `JsonToken.START_OBJECT`) at requiredApprovers',
        'com.atlassian.bitbucket.rest.exception.UnmappableJsonException',
      );
  }
  for (const k of ['requiredAllApprovers', 'requiredAllTasksComplete'] as const)
    if (typeof body[k] === 'boolean') next[k] = body[k] as boolean;
  const merge = body.mergeConfig as
    | { defaultStrategy?: { id: string }; strategies?: { id: string }[] }
    | undefined;
  if (merge) {
    if (!merge.defaultStrategy)
      Object.assign(next, { defaultStrategy: defaults.defaultStrategy, strategies: defaults.strategies });
    else {
      const ids = (merge.strategies ?? []).map((x) => x.id);
      const unknown = [merge.defaultStrategy.id, ...ids].filter((id) => !strategyNames[id]);
      if (unknown.length) return bitbucketError(400, `Unknown merge strategy ${unknown[0]}.`, validation);
      if (!ids.includes(merge.defaultStrategy.id))
        return bitbucketError(
          400,
          'The default merge strategy must be one of the enabled strategies.',
          validation,
        );
      Object.assign(next, { defaultStrategy: merge.defaultStrategy.id, strategies: ids });
    }
  }
  ops.prSettings[scope.id] = next;
  return { status: 200, body: prSettingsJson(ctx, scope) };
}

const scopeJson = (scope: RouteScope, where: string) => ({
  type: where === scope.id ? 'REPOSITORY' : where === scope.project ? 'PROJECT' : 'GLOBAL',
  resourceId: where === scope.id ? scope.repoId : 1,
});
const inherited = <T>(map: Record<string, T>, scope: RouteScope): [T | undefined, string] =>
  map[scope.id] !== undefined
    ? [map[scope.id], scope.id]
    : map[scope.project] !== undefined
      ? [map[scope.project], scope.project]
      : [undefined, ''];

function autoMergeJson(ctx: RouteContext, scope: RouteScope) {
  const [enabled, where] = inherited(opsState(ctx.state).autoMerge, scope);
  return { enabled: enabled ?? false, restrictionState: 'NONE', scope: scopeJson(scope, where) };
}
function autoDeclineJson(ctx: RouteContext, scope: RouteScope) {
  const [s, where] = inherited(opsState(ctx.state).autoDecline, scope);
  return {
    enabled: s?.enabled ?? false,
    inactivityWeeks: s?.inactivityWeeks ?? 4,
    scope: scopeJson(scope, where),
  };
}

function userJson(ctx: RouteContext, name: string) {
  const u = ctx.state.users.find((x) => x.name === name)!;
  return {
    name: u.name,
    slug: u.slug,
    displayName: u.displayName,
    emailAddress: u.email,
    id: ctx.state.users.indexOf(u) + 1,
    type: 'NORMAL',
    active: true,
  };
}
/** The names of the users in a body's list, or the error for one the server does not know. */
function userNames(ctx: RouteContext, users: unknown): string[] | RouteResult {
  if (!Array.isArray(users)) return [];
  const names: string[] = [];
  for (const u of users as { name?: string; slug?: string }[]) {
    const found = ctx.state.users.find((x) => x.name === u?.name || x.slug === u?.slug);
    if (!found) return bitbucketError(400, `User ${u?.name ?? u?.slug} does not exist.`, validation);
    names.push(found.name);
  }
  return names;
}
function conditionJson(ctx: RouteContext, c: FakeDefaultReviewers) {
  const { repo: _repo, reviewers, ...rest } = c;
  return {
    ...rest,
    reviewers: reviewers.map((n) => userJson(ctx, n)),
    scope: { type: 'REPOSITORY', resourceId: 11 },
  };
}
const validMatcher = (m: FakeRefMatcher | undefined) => Boolean(m?.id && m.type?.id);

/** Repository settings operations. */
export const repoSettingsRoutes: RouteTable = {
  getPullRequestSettings_1: scoped(false, (ctx, scope) => ({
    status: 200,
    body: prSettingsJson(ctx, scope),
  })),
  updatePullRequestSettings_1: scoped(true, updatePrSettings),
  get_5: scoped(false, (ctx, scope) => ({ status: 200, body: autoMergeJson(ctx, scope) })),
  set_1: scoped(true, (ctx, scope) => {
    const enabled = (ctx.body as { enabled?: unknown })?.enabled;
    if (typeof enabled !== 'boolean')
      return bitbucketError(400, "The 'enabled' field is required.", validation);
    opsState(ctx.state).autoMerge[scope.id] = enabled;
    return { status: 200, body: autoMergeJson(ctx, scope) };
  }),
  delete_5: scoped(true, (ctx, scope) => {
    delete opsState(ctx.state).autoMerge[scope.id];
    return { status: 204 };
  }),
  getAutoDeclineSettings_1: scoped(false, (ctx, scope) => ({
    status: 200,
    body: autoDeclineJson(ctx, scope),
  })),
  setAutoDeclineSettings_1: scoped(true, (ctx, scope) => {
    const b = (ctx.body ?? {}) as { enabled?: unknown; inactivityWeeks?: unknown };
    if (typeof b.enabled !== 'boolean' || ![1, 2, 4, 8, 12].includes(Number(b.inactivityWeeks ?? 4)))
      return bitbucketError(
        400,
        'inactivityWeeks must be one of 1, 2, 4, 8 or 12, and enabled is required.',
        validation,
      );
    opsState(ctx.state).autoDecline[scope.id] = {
      enabled: b.enabled,
      inactivityWeeks: Number(b.inactivityWeeks ?? 4),
    };
    return { status: 200, body: autoDeclineJson(ctx, scope) };
  }),
  deleteAutoDeclineSettings_1: scoped(true, (ctx, scope) => {
    delete opsState(ctx.state).autoDecline[scope.id];
    return { status: 204 };
  }),
  getReviewerGroups_1: scoped(false, (ctx, scope) =>
    page(
      opsState(ctx.state)
        .reviewerGroups.filter((g) => g.repo === scope.id)
        .map(({ repo: _repo, users, ...g }) => ({
          ...g,
          users: users.map((n) => userJson(ctx, n)),
          scope: { type: 'REPOSITORY', resourceId: scope.repoId },
        })),
      ctx.query,
    ),
  ),
  create_2: scoped(true, (ctx, scope) => {
    const b = (ctx.body ?? {}) as { name?: string; description?: string; users?: unknown };
    if (!b.name) return bitbucketError(400, 'A reviewer group name is required.', validation);
    const ops = opsState(ctx.state);
    if (ops.reviewerGroups.some((g) => g.repo === scope.id && g.name === b.name))
      return bitbucketError(
        409,
        `A reviewer group named ${b.name} already exists.`,
        'com.atlassian.bitbucket.DuplicateEntityException',
      );
    const users = userNames(ctx, b.users);
    if (!Array.isArray(users)) return users;
    const group = {
      id: ops.nextId++,
      repo: scope.id,
      name: b.name,
      ...(b.description && { description: b.description }),
      users,
    };
    ops.reviewerGroups.push(group);
    return {
      status: 201,
      body: {
        id: group.id,
        name: group.name,
        description: group.description,
        users: users.map((n) => userJson(ctx, n)),
      },
    };
  }),
  delete_7: scoped(true, (ctx, scope) => {
    const ops = opsState(ctx.state);
    const found = ops.reviewerGroups.find((g) => g.repo === scope.id && g.id === Number(ctx.params.id));
    if (!found)
      return bitbucketError(
        404,
        `Reviewer group ${ctx.params.id} does not exist.`,
        'com.atlassian.bitbucket.NoSuchEntityException',
      );
    ops.reviewerGroups = ops.reviewerGroups.filter((g) => g !== found);
    return { status: 204 };
  }),
  getPullRequestConditions_1: scoped(false, (ctx, scope) => ({
    status: 200,
    body: opsState(ctx.state)
      .defaultReviewers.filter((c) => c.repo === scope.id)
      .map((c) => conditionJson(ctx, c)),
  })),
  createPullRequestCondition_1: scoped(true, (ctx, scope) => {
    const b = (ctx.body ?? {}) as {
      sourceMatcher?: FakeRefMatcher;
      targetMatcher?: FakeRefMatcher;
      reviewers?: unknown;
      requiredApprovals?: number;
    };
    if (!validMatcher(b.sourceMatcher) || !validMatcher(b.targetMatcher))
      return bitbucketError(400, 'sourceMatcher and targetMatcher are required.', validation);
    const reviewers = userNames(ctx, b.reviewers);
    if (!Array.isArray(reviewers)) return reviewers;
    if (reviewers.length === 0) return bitbucketError(400, 'At least one reviewer is required.', validation);
    const approvals = b.requiredApprovals ?? 0;
    if (approvals > reviewers.length)
      return bitbucketError(
        400,
        'The number of required approvals cannot exceed the number of reviewers.',
        validation,
      );
    const ops = opsState(ctx.state);
    const c: FakeDefaultReviewers = {
      id: ops.nextId++,
      repo: scope.id,
      sourceRefMatcher: b.sourceMatcher!,
      targetRefMatcher: b.targetMatcher!,
      reviewers,
      requiredApprovals: approvals,
    };
    ops.defaultReviewers.push(c);
    return { status: 200, body: conditionJson(ctx, c) };
  }),
  deletePullRequestCondition_1: scoped(true, (ctx, scope) => {
    const ops = opsState(ctx.state);
    const found = ops.defaultReviewers.find((c) => c.repo === scope.id && c.id === Number(ctx.params.id));
    if (!found) return { status: 404 };
    ops.defaultReviewers = ops.defaultReviewers.filter((c) => c !== found);
    return { status: 204 };
  }),
};
