// Emoji reactions to pull request comments: any signed-in reader may react; one reaction per user and emoticon.
import { bitbucketError, type RouteContext } from '../route-types.ts';
import type { FakeState } from '../state.ts';
import { type DeclaredRoute, repoRoute } from './declared.ts';
import { findPullRequest, userJson } from './pull-request-json.ts';

const reactions = new WeakMap<FakeState, Set<string>>();

/** The reactions of a fake server, as `PROJ/slug#pr/comment/emoticon/user` keys (tests read them). */
export function reactionsOf(state: FakeState): Set<string> {
  const set = reactions.get(state) ?? new Set<string>();
  reactions.set(state, set);
  return set;
}

function react(add: boolean) {
  return repoRoute('REPO_READ', (ctx: RouteContext) => {
    if (!ctx.user) return bitbucketError(401, 'Authentication required.');
    const found = findPullRequest(ctx);
    if (!('pr' in found)) return found;
    if (!found.pr.comments.some((c) => String(c.id) === ctx.params.commentId))
      return bitbucketError(
        404,
        `Comment ${ctx.params.commentId} does not exist.`,
        'com.atlassian.bitbucket.comment.NoSuchCommentException',
      );
    const key = `${found.pr.projectKey}/${found.pr.slug}#${found.pr.id}/${ctx.params.commentId}/${ctx.params.emoticon}/${ctx.user.name}`;
    if (add) reactionsOf(ctx.state).add(key);
    else reactionsOf(ctx.state).delete(key);
    return add
      ? {
          status: 200,
          body: { emoticon: { shortcut: ctx.params.emoticon }, user: userJson(ctx.user.name, ctx) },
        }
      : { status: 204 };
  });
}

/** Routes keyed by operationId, each with the permission Bitbucket requires. */
export const reactionRoutes: Record<string, DeclaredRoute> = {
  react_1: react(true),
  unReact_1: react(false),
};
