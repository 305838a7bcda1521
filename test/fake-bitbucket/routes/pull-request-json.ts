// Pull requests, comments and users shaped as Bitbucket DC 9.4 returns them, plus lookups the PR routes share.
import type {
  FakeComment,
  FakeParticipant,
  FakePullRequest,
  PullRequestData,
} from '../pull-request-state.ts';
import { pullRequestsOf } from '../pull-request-state.ts';
import { bitbucketError, type RouteContext, type RouteResult } from '../route-types.ts';

/** A user as Bitbucket embeds it in pull requests and comments. */
export function userJson(name: string, ctx: RouteContext) {
  const u = ctx.state.users.find((x) => x.name === name);
  return {
    name,
    slug: u?.slug ?? name,
    displayName: u?.displayName ?? name,
    emailAddress: u?.email,
    id: (ctx.state.users.findIndex((x) => x.name === name) ?? 0) + 1,
    active: true,
    type: 'NORMAL',
  };
}

export function participantJson(p: FakeParticipant, pr: FakePullRequest, ctx: RouteContext) {
  return {
    user: userJson(p.name, ctx),
    role: p.role,
    approved: p.status === 'APPROVED',
    status: p.status,
    ...(p.status !== 'UNAPPROVED' && { lastReviewedCommit: pr.fromCommit }),
  };
}

function refJson(branch: string, commit: string, pr: FakePullRequest) {
  return {
    id: `refs/heads/${branch}`,
    displayId: branch,
    latestCommit: commit,
    type: 'BRANCH',
    repository: { slug: pr.slug, name: pr.slug, project: { key: pr.projectKey } },
  };
}

/** A pull request as GET .../pull-requests/{id} returns it. */
export function pullRequestJson(pr: FakePullRequest, ctx: RouteContext) {
  const author = pr.participants.find((p) => p.role === 'AUTHOR')!;
  return {
    id: pr.id,
    version: pr.version,
    title: pr.title,
    ...(pr.description && { description: pr.description }),
    state: pr.state,
    open: pr.state === 'OPEN',
    closed: pr.state !== 'OPEN',
    draft: pr.draft,
    createdDate: pr.created,
    updatedDate: pr.updated,
    ...(pr.closed && { closedDate: pr.closed }),
    fromRef: refJson(pr.from, pr.fromCommit, pr),
    toRef: refJson(pr.to, pr.toCommit, pr),
    locked: false,
    author: participantJson(author, pr, ctx),
    reviewers: pr.participants.filter((p) => p.role === 'REVIEWER').map((p) => participantJson(p, pr, ctx)),
    participants: pr.participants
      .filter((p) => p.role === 'PARTICIPANT')
      .map((p) => participantJson(p, pr, ctx)),
    links: {
      self: [
        { href: `${ctx.baseUrl}/projects/${pr.projectKey}/repos/${pr.slug}/pull-requests/${pr.id}/overview` },
      ],
    },
  };
}

/** A comment with its replies nested; the anchor sits on the thread's root, as on live servers. */
export function commentJson(c: FakeComment, pr: FakePullRequest, ctx: RouteContext): Record<string, unknown> {
  const replies = pr.comments.filter((r) => r.parentId === c.id);
  return {
    id: c.id,
    version: c.version,
    text: c.text,
    author: userJson(c.author, ctx),
    createdDate: c.created,
    updatedDate: c.created,
    severity: c.severity,
    state: c.state,
    threadResolved: c.threadResolved,
    ...(c.anchor && {
      anchor: {
        path: c.anchor.path,
        ...(c.anchor.line !== undefined && { line: c.anchor.line, lineType: c.anchor.lineType }),
        fileType: c.anchor.fileType,
        diffType: 'EFFECTIVE',
        fromHash: pr.toCommit,
        toHash: pr.fromCommit,
      },
    }),
    comments: replies.map((r) => commentJson(r, pr, ctx)),
  };
}

/** The pull request a route's path names, or Bitbucket's 404 for it. */
export function findPullRequest(
  ctx: RouteContext,
): { d: PullRequestData; pr: FakePullRequest } | RouteResult {
  const d = pullRequestsOf(ctx.state);
  const pr = d.pullRequests.find(
    (p) =>
      p.projectKey.toUpperCase() === ctx.params.projectKey.toUpperCase() &&
      p.slug === ctx.params.repositorySlug.toLowerCase() &&
      String(p.id) === ctx.params.pullRequestId,
  );
  if (!pr)
    return bitbucketError(
      404,
      `Pull request ${ctx.params.pullRequestId} does not exist in ${ctx.params.projectKey}/${ctx.params.repositorySlug}.`,
      'com.atlassian.bitbucket.pull.NoSuchPullRequestException',
    );
  return { d, pr };
}

/** Bitbucket's 409 when the caller's version of a pull request is stale. */
export function staleVersion(pr: FakePullRequest, given: unknown): RouteResult | undefined {
  if (given === undefined || given === null || Number(given) === pr.version) return undefined;
  return bitbucketError(
    409,
    `You are attempting to modify a pull request based on out-of-date information (version ${given}, current ${pr.version}).`,
    'com.atlassian.bitbucket.pull.PullRequestOutOfDateException',
  );
}

/** Bitbucket's 409 for an action that needs an open pull request. */
export function notOpen(pr: FakePullRequest): RouteResult | undefined {
  if (pr.state === 'OPEN') return undefined;
  return bitbucketError(
    409,
    `Pull request ${pr.id} is ${pr.state.toLowerCase()}; the action needs an open pull request.`,
    'com.atlassian.bitbucket.pull.IllegalPullRequestStateException',
  );
}
