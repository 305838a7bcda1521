// Routes for the review loop: participants, watching, the merge base and the pull requests of a commit.

import { opsState } from '../ops-state.ts';
import { pullRequestsOf, tick } from '../pull-request-state.ts';
import { watchersOf } from '../review-state.ts';
import { bitbucketError, page, type RouteContext, type RouteResult } from '../route-types.ts';
import type { FakeRepo } from '../state.ts';
import { type DeclaredRoute, repoRoute } from './declared.ts';
import {
  commentJson,
  findPullRequest,
  participantJson,
  pullRequestJson,
  userJson,
} from './pull-request-json.ts';

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
  // A review batch is the caller's PENDING comments; nobody else sees them until it is completed.
  getReview: withPr('REPO_READ', (ctx, pr) => {
    if (!ctx.user) return bitbucketError(401, 'Authentication required.');
    const mine = pr.comments.filter((c) => c.state === 'PENDING' && c.author === ctx.user!.name);
    return page(
      mine.map((c) => commentJson(c, pr, ctx)),
      ctx.query,
    );
  }),
  finishReview: withPr('REPO_READ', (ctx, pr) => {
    if (!ctx.user) return bitbucketError(401, 'Authentication required.');
    const b = (ctx.body ?? {}) as { commentText?: string; participantStatus?: string };
    const status = b.participantStatus?.toUpperCase().replace('-', '_');
    if (status !== undefined && !['APPROVED', 'NEEDS_WORK', 'UNAPPROVED'].includes(status))
      return bitbucketError(
        400,
        'participantStatus: must be approved, needs_work or unapproved.',
        'com.atlassian.bitbucket.validation.ArgumentValidationException',
      );
    const me = ctx.user.name;
    if (status && pr.participants.some((p) => p.name === me && p.role === 'AUTHOR'))
      return bitbucketError(
        400,
        'The author of a pull request cannot review it.',
        'com.atlassian.bitbucket.pull.InvalidPullRequestParticipantException',
      );
    const published = pr.comments.filter((c) => c.state === 'PENDING' && c.author === me);
    for (const c of published) c.state = 'OPEN';
    const d = pullRequestsOf(ctx.state);
    if (b.commentText?.trim())
      pr.comments.push({
        id: d.nextId++,
        version: 0,
        text: b.commentText,
        author: me,
        created: tick(d),
        severity: 'NORMAL',
        state: 'OPEN',
        threadResolved: false,
      });
    if (status) {
      const p = pr.participants.find((x) => x.name === me);
      if (p) p.status = status as 'APPROVED';
      else pr.participants.push({ name: me, role: 'PARTICIPANT', status: status as 'APPROVED' });
    }
    return { status: 200, body: { comments: published.map((c) => commentJson(c, pr, ctx)) } };
  }),
  discardReview: withPr('REPO_READ', (ctx, pr) => {
    if (!ctx.user) return bitbucketError(401, 'Authentication required.');
    pr.comments = pr.comments.filter((c) => !(c.state === 'PENDING' && c.author === ctx.user!.name));
    return { status: 204 };
  }),
  getIssueKeysForPullRequest: withPr('REPO_READ', (_ctx, pr) => {
    // The Jira integration reads issue keys from the title, branch and commit messages.
    const text = [pr.title, pr.from, ...pr.commits.map((c) => c.message)].join(' ');
    const keys = [...new Set(text.match(/\b[A-Z][A-Z0-9]+-\d+\b/g) ?? [])];
    return {
      status: 200,
      body: keys.map((key) => ({ key, url: `https://jira.example.test/browse/${key}` })),
    };
  }),
  // The users of every default-reviewer condition whose matchers accept the source and target refs.
  getReviewers: repoRoute('REPO_READ', (ctx, repo) => {
    for (const q of ['sourceRepoId', 'targetRepoId', 'sourceRefId', 'targetRefId'])
      if (!ctx.query.get(q))
        return bitbucketError(
          400,
          `${q} is required.`,
          'com.atlassian.bitbucket.validation.ArgumentValidationException',
        );
    if (Number(ctx.query.get('targetRepoId')) !== repo.id)
      return bitbucketError(
        400,
        'targetRepoId must be the repository of the path.',
        'com.atlassian.bitbucket.validation.ArgumentValidationException',
      );
    const accepts = (m: { id: string; type: { id: string } }, ref: string) =>
      m.type.id === 'ANY_REF' ||
      (m.type.id === 'BRANCH' && m.id === ref) ||
      (m.type.id === 'PATTERN' &&
        new RegExp(`^(refs/heads/)?${m.id.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`).test(
          ref,
        ));
    const names = new Set<string>();
    for (const c of opsState(ctx.state).defaultReviewers)
      if (
        c.repo === `${repo.projectKey}/${repo.slug}` &&
        accepts(c.sourceRefMatcher, ctx.query.get('sourceRefId')!) &&
        accepts(c.targetRefMatcher, ctx.query.get('targetRefId')!)
      )
        for (const n of c.reviewers) names.add(n);
    return { status: 200, body: [...names].sort().map((n) => userJson(n, ctx)) };
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
