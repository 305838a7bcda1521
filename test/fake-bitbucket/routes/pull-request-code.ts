// Routes that change a pull request's source branch: rebase (git plugin) and applying a comment's suggestion.
import { sha } from '../core-state.ts';
import { pullRequestsOf, tick } from '../pull-request-state.ts';
import { bitbucketError, type RouteContext, type RouteResult } from '../route-types.ts';
import { type DeclaredRoute, repoRoute } from './declared.ts';
import { findPullRequest, notOpen, staleVersion } from './pull-request-json.ts';

type Pr = ReturnType<typeof pullRequestsOf>['pullRequests'][number];

function withPr(permission: 'REPO_READ' | 'REPO_WRITE', handle: (ctx: RouteContext, pr: Pr) => RouteResult) {
  return repoRoute(permission, (ctx) => {
    const found = findPullRequest(ctx);
    return 'pr' in found ? handle(ctx, found.pr) : found;
  });
}

/** What stops a rebase: Bitbucket answers these as vetoes (canRebase) or a 409 (rebase). */
function rebaseVetoes(pr: Pr): { summaryMessage: string; detailedMessage: string }[] {
  if (pr.state !== 'OPEN')
    return [{ summaryMessage: 'Pull request is not open', detailedMessage: `#${pr.id} is ${pr.state}.` }];
  if (pr.conflicted)
    return [
      { summaryMessage: 'Rebase conflicts', detailedMessage: 'The rebase would conflict; rebase locally.' },
    ];
  return [];
}

/** The number of ```suggestion blocks in a comment's text. */
const suggestions = (text: string) => text.match(/^```suggestion\s*$/gm)?.length ?? 0;

export const pullRequestCodeRoutes: Record<string, DeclaredRoute> = {
  canRebase: withPr('REPO_READ', (_ctx, pr) => ({ status: 200, body: { vetoes: rebaseVetoes(pr) } })),
  rebase: withPr('REPO_WRITE', (ctx, pr) => {
    const stale = staleVersion(pr, (ctx.body as { version?: unknown } | undefined)?.version);
    if (stale) return stale;
    const veto = rebaseVetoes(pr)[0];
    if (veto)
      return bitbucketError(
        409,
        veto.detailedMessage,
        'com.atlassian.bitbucket.pull.PullRequestRebaseVetoedException',
      );
    const fromHash = pr.fromCommit;
    pr.fromCommit = sha(`rebase:${pr.projectKey}/${pr.slug}#${pr.id}:${pr.version}`);
    pr.version++;
    pr.updated = tick(pullRequestsOf(ctx.state));
    return {
      status: 200,
      body: {
        refChange: {
          fromHash,
          toHash: pr.fromCommit,
          refId: `refs/heads/${pr.from}`,
          ref: { id: `refs/heads/${pr.from}`, displayId: pr.from, type: 'BRANCH' },
          type: 'UPDATE',
        },
      },
    };
  }),
  applySuggestion: withPr('REPO_WRITE', (ctx, pr) => {
    const closed = notOpen(pr);
    if (closed) return closed;
    const b = (ctx.body ?? {}) as Record<string, unknown>;
    const comment = pr.comments.find((c) => String(c.id) === ctx.params.commentId && c.state !== 'PENDING');
    if (!comment)
      return bitbucketError(
        404,
        `Comment ${ctx.params.commentId} does not exist.`,
        'com.atlassian.bitbucket.comment.NoSuchCommentException',
      );
    if (b.commentVersion !== comment.version || b.pullRequestVersion !== pr.version)
      return bitbucketError(
        409,
        'The comment or pull request changed since it was read.',
        'com.atlassian.bitbucket.comment.CommentOutOfDateException',
      );
    const index = Number(b.suggestionIndex ?? 0);
    if (!Number.isInteger(index) || index < 0 || index >= suggestions(comment.text))
      return bitbucketError(400, `Comment ${comment.id} has no suggestion ${index}.`);
    const d = pullRequestsOf(ctx.state);
    const id = sha(`suggestion:${comment.id}:${index}:${pr.version}`);
    pr.commits.unshift({
      id,
      message: String(b.commitMessage ?? 'Apply suggestion'),
      author: ctx.user!.name,
      timestamp: tick(d),
    });
    pr.fromCommit = id;
    pr.version++;
    return { status: 204 };
  }),
};
