// One reviewer group of a repository: read it, its members, and update it (REPO_ADMIN), beside the list, create
// and delete routes in repo-settings.ts.
import { opsState } from '../ops-state.ts';
import { bitbucketError, page, type RouteContext, type RouteResult } from '../route-types.ts';
import type { FakeRepo } from '../state.ts';
import { type DeclaredRoute, repoRoute } from './declared.ts';
import { userJson } from './pull-request-json.ts';

type Group = ReturnType<typeof opsState>['reviewerGroups'][number];

function withGroup(
  permission: 'REPO_READ' | 'REPO_ADMIN',
  handle: (ctx: RouteContext, g: Group) => RouteResult,
): DeclaredRoute {
  return repoRoute(permission, (ctx, repo: FakeRepo) => {
    const g = opsState(ctx.state).reviewerGroups.find(
      (x) => x.repo === `${repo.projectKey}/${repo.slug}` && String(x.id) === ctx.params.id,
    );
    return g
      ? handle(ctx, g)
      : bitbucketError(
          404,
          `Reviewer group ${ctx.params.id} does not exist.`,
          'com.atlassian.bitbucket.NoSuchEntityException',
        );
  });
}

const json = (ctx: RouteContext, g: Group) => ({
  id: g.id,
  name: g.name,
  ...(g.description && { description: g.description }),
  users: g.users.map((n) => userJson(n, ctx)),
});

/** Routes keyed by operationId, each with the permission Bitbucket requires. */
export const reviewerGroupRoutes: Record<string, DeclaredRoute> = {
  getReviewerGroup_1: withGroup('REPO_READ', (ctx, g) => ({ status: 200, body: json(ctx, g) })),
  getUsers: withGroup('REPO_READ', (ctx, g) =>
    page(
      g.users.map((n) => userJson(n, ctx)),
      ctx.query,
    ),
  ),
  update_2: withGroup('REPO_ADMIN', (ctx, g) => {
    const b = (ctx.body ?? {}) as { name?: string; description?: string; users?: { name?: string }[] };
    const unknown = (b.users ?? []).filter((u) => !ctx.state.users.some((x) => x.name === u.name));
    if (unknown.length)
      return bitbucketError(
        400,
        `User ${unknown[0].name} does not exist.`,
        'com.atlassian.bitbucket.validation.ArgumentValidationException',
      );
    // A PUT replaces the group (RestReviewerGroup whole): a description or members left out are erased.
    if (!b.name)
      return bitbucketError(
        400,
        'A name is required.',
        'com.atlassian.bitbucket.validation.ArgumentValidationException',
      );
    g.name = b.name;
    g.description = b.description;
    g.users = (b.users ?? []).map((u) => u.name!);
    return { status: 200, body: json(ctx, g) };
  }),
};

/** PUT one default-reviewer condition of a repository (REPO_ADMIN); the list and create routes are in repo-settings.ts. */
export const conditionRoutes: Record<string, DeclaredRoute> = {
  updatePullRequestCondition_1: repoRoute('REPO_ADMIN', (ctx, repo) => {
    const c = opsState(ctx.state).defaultReviewers.find(
      (x) => x.repo === `${repo.projectKey}/${repo.slug}` && String(x.id) === ctx.params.id,
    );
    if (!c)
      return bitbucketError(
        404,
        `Condition ${ctx.params.id} does not exist.`,
        'com.atlassian.bitbucket.NoSuchEntityException',
      );
    const b = (ctx.body ?? {}) as {
      sourceMatcher?: typeof c.sourceRefMatcher;
      targetMatcher?: typeof c.targetRefMatcher;
      reviewers?: { name?: string }[];
      requiredApprovals?: number;
    };
    const unknown = (b.reviewers ?? []).filter((u) => !ctx.state.users.some((x) => x.name === u.name));
    if (unknown.length)
      return bitbucketError(
        400,
        `User ${unknown[0].name} does not exist.`,
        'com.atlassian.bitbucket.validation.ArgumentValidationException',
      );
    // A PUT replaces the condition: its matchers, reviewers and approvals are what the body says.
    if (!b.sourceMatcher || !b.targetMatcher)
      return bitbucketError(
        400,
        'sourceMatcher and targetMatcher are required.',
        'com.atlassian.bitbucket.validation.ArgumentValidationException',
      );
    const reviewers = (b.reviewers ?? []).map((u) => u.name!);
    const approvals = b.requiredApprovals ?? 0;
    if (approvals > reviewers.length)
      return bitbucketError(
        400,
        'requiredApprovals: more than the number of reviewers.',
        'com.atlassian.bitbucket.validation.ArgumentValidationException',
      );
    Object.assign(c, {
      reviewers,
      requiredApprovals: approvals,
      sourceRefMatcher: b.sourceMatcher,
      targetRefMatcher: b.targetMatcher,
    });
    return {
      status: 200,
      body: {
        id: c.id,
        sourceRefMatcher: c.sourceRefMatcher,
        targetRefMatcher: c.targetRefMatcher,
        reviewers: c.reviewers.map((n) => userJson(n, ctx)),
        requiredApprovals: c.requiredApprovals,
      },
    };
  }),
};
