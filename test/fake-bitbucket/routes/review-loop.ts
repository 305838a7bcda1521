// Routes for the review loop: participants, watching, the merge base and the pull requests of a commit.
import { pullRequestsOf } from '../pull-request-state.ts';
import { watchersOf } from '../review-state.ts';
import { page, type RouteContext, type RouteResult } from '../route-types.ts';
import type { FakeRepo } from '../state.ts';
import { type DeclaredRoute, repoRoute } from './declared.ts';
import { findPullRequest, participantJson, pullRequestJson, userJson } from './pull-request-json.ts';

function withPr(
  permission: 'REPO_READ' | 'REPO_WRITE',
  handle: (
    ctx: RouteContext,
    pr: ReturnType<typeof pullRequestsOf>['pullRequests'][number],
    repo: FakeRepo,
  ) => RouteResult,
): DeclaredRoute {
  return repoRoute(permission, (ctx, repo) => {
    const found = findPullRequest(ctx);
    return 'pr' in found ? handle(ctx, found.pr, repo) : found;
  });
}

/** The routes, keyed by operationId, each with the permission Bitbucket requires. */
export const reviewLoopRoutes: Record<string, DeclaredRoute> = {
  listParticipants: withPr('REPO_READ', (ctx, pr) =>
    page(
      pr.participants.map((p) => participantJson(p, pr, ctx)),
      ctx.query,
    ),
  ),
  // Watching needs only read access: anyone who can see a pull request may follow it.
  watch_1: withPr('REPO_READ', (ctx, pr) => {
    if (!ctx.user) return { status: 401 };
    watchersOf(ctx.state, `${pr.projectKey}/${pr.slug}#${pr.id}`).add(ctx.user.name);
    return { status: 204 };
  }),
  unwatch_1: withPr('REPO_READ', (ctx, pr) => {
    if (!ctx.user) return { status: 401 };
    watchersOf(ctx.state, `${pr.projectKey}/${pr.slug}#${pr.id}`).delete(ctx.user.name);
    return { status: 204 };
  }),
  getMergeBase_1: withPr('REPO_READ', (ctx, pr) => {
    const target = pr.participants.find((p) => p.role === 'AUTHOR')!.name;
    const person = userJson(target, ctx);
    return {
      status: 200,
      body: {
        id: pr.toCommit,
        displayId: pr.toCommit.slice(0, 11),
        message: `Tip of ${pr.to} when #${pr.id} was opened`,
        author: person,
        authorTimestamp: pr.created,
        committer: person,
        committerTimestamp: pr.created,
        parents: [],
      },
    };
  }),
  getPullRequests: repoRoute('REPO_READ', (ctx, repo) => {
    const id = ctx.params.commitId;
    const prs = pullRequestsOf(ctx.state).pullRequests.filter(
      (p) =>
        p.projectKey === repo.projectKey &&
        p.slug === repo.slug &&
        (p.fromCommit.startsWith(id) || p.commits.some((c) => c.id.startsWith(id))),
    );
    return page(
      prs.sort((a, b) => b.id - a.id).map((p) => pullRequestJson(p, ctx)),
      ctx.query,
    );
  }),
};
