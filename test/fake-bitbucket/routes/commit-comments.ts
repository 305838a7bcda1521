// Comments on commits: read with REPO_READ, written by any signed-in reader (as on the commit page); edits and
// deletes carry the version they saw, and a comment with replies cannot be deleted.
import { gitOf, resolveRef } from '../core-state.ts';
import { bitbucketError, page, type RouteContext, type RouteResult } from '../route-types.ts';
import type { FakeRepo, FakeState } from '../state.ts';
import { type DeclaredRoute, repoRoute } from './declared.ts';
import { userJson } from './pull-request-json.ts';

type Comment = {
  id: number;
  version: number;
  text: string;
  author: string;
  created: number;
  parentId?: number;
  path?: string;
  line?: number;
};
const store = new WeakMap<FakeState, { next: number; byCommit: Map<string, Comment[]> }>();

function commentsOf(ctx: RouteContext, repo: FakeRepo): Comment[] | RouteResult {
  const commit = resolveRef(gitOf(ctx.state, repo), ctx.params.commitId);
  if (!commit)
    return bitbucketError(
      404,
      `Commit '${ctx.params.commitId}' does not exist in this repository.`,
      'com.atlassian.bitbucket.commit.NoSuchCommitException',
    );
  const s = store.get(ctx.state) ?? { next: 500, byCommit: new Map() };
  store.set(ctx.state, s);
  const key = `${repo.id}@${commit}`;
  const list = s.byCommit.get(key) ?? [];
  s.byCommit.set(key, list);
  return list;
}

function json(c: Comment, all: Comment[], ctx: RouteContext): Record<string, unknown> {
  return {
    id: c.id,
    version: c.version,
    text: c.text,
    author: userJson(c.author, ctx),
    createdDate: c.created,
    updatedDate: c.created,
    ...(c.path && {
      anchor: { path: c.path, ...(c.line && { line: c.line, lineType: 'CONTEXT', fileType: 'TO' }) },
    }),
    comments: all.filter((r) => r.parentId === c.id).map((r) => json(r, all, ctx)),
  };
}

function withComment(
  permission: 'REPO_READ',
  handle: (ctx: RouteContext, all: Comment[], c: Comment) => RouteResult,
): DeclaredRoute {
  return repoRoute(permission, (ctx, repo) => {
    const all = commentsOf(ctx, repo);
    if (!Array.isArray(all)) return all;
    const c = all.find((x) => String(x.id) === ctx.params.commentId);
    return c
      ? handle(ctx, all, c)
      : bitbucketError(
          404,
          `Comment ${ctx.params.commentId} does not exist.`,
          'com.atlassian.bitbucket.comment.NoSuchCommentException',
        );
  });
}

const signedIn = (ctx: RouteContext) =>
  ctx.user ? undefined : bitbucketError(401, 'Authentication required.');
const stale = (c: Comment, given: unknown) =>
  Number(given) === c.version
    ? undefined
    : bitbucketError(
        409,
        `Comment ${c.id} has changed (current version ${c.version}).`,
        'com.atlassian.bitbucket.comment.CommentOutOfDateException',
      );

/** Routes keyed by operationId, each with the permission Bitbucket requires. */
export const commitCommentRoutes: Record<string, DeclaredRoute> = {
  getComments: repoRoute('REPO_READ', (ctx, repo) => {
    const all = commentsOf(ctx, repo);
    if (!Array.isArray(all)) return all;
    const path = ctx.query.get('path');
    return page(
      all.filter((c) => c.parentId === undefined && (!path || c.path === path)).map((c) => json(c, all, ctx)),
      ctx.query,
    );
  }),
  createComment: repoRoute('REPO_READ', (ctx, repo) => {
    const denied = signedIn(ctx);
    if (denied) return denied;
    const all = commentsOf(ctx, repo);
    if (!Array.isArray(all)) return all;
    const b = (ctx.body ?? {}) as {
      text?: string;
      parent?: { id?: number };
      anchor?: { path?: string; line?: number };
    };
    if (!b.text?.trim())
      return bitbucketError(
        400,
        'text: A comment needs text.',
        'com.atlassian.bitbucket.validation.ArgumentValidationException',
      );
    if (b.parent?.id !== undefined && !all.some((c) => c.id === b.parent!.id))
      return bitbucketError(
        400,
        `parent: comment ${b.parent.id} does not exist.`,
        'com.atlassian.bitbucket.validation.ArgumentValidationException',
      );
    const s = store.get(ctx.state)!;
    const c: Comment = {
      id: s.next++,
      version: 0,
      text: b.text,
      author: ctx.user!.name,
      created: 1_700_000_000_000 + s.next,
      ...(b.parent?.id !== undefined && { parentId: b.parent.id }),
      ...(b.anchor?.path && { path: b.anchor.path, line: b.anchor.line }),
    };
    all.push(c);
    return { status: 201, body: json(c, all, ctx) };
  }),
  getComment: withComment('REPO_READ', (ctx, all, c) => ({ status: 200, body: json(c, all, ctx) })),
  updateComment: withComment('REPO_READ', (ctx, all, c) => {
    const denied =
      signedIn(ctx) ??
      (c.author === ctx.user!.name
        ? undefined
        : bitbucketError(
            403,
            'Only the author can edit a comment.',
            'com.atlassian.bitbucket.AuthorisationException',
          ));
    if (denied) return denied;
    const b = (ctx.body ?? {}) as { text?: string; version?: number };
    const conflict = stale(c, b.version);
    if (conflict) return conflict;
    if (b.text !== undefined) c.text = b.text;
    c.version++;
    return { status: 200, body: json(c, all, ctx) };
  }),
  deleteComment: withComment('REPO_READ', (ctx, all, c) => {
    const denied =
      signedIn(ctx) ??
      (c.author === ctx.user!.name || ctx.user!.admin
        ? undefined
        : bitbucketError(
            403,
            'Only the author can delete a comment.',
            'com.atlassian.bitbucket.AuthorisationException',
          ));
    if (denied) return denied;
    const conflict = stale(c, ctx.query.get('version'));
    if (conflict) return conflict;
    if (all.some((r) => r.parentId === c.id))
      return bitbucketError(409, `Comment ${c.id} has replies and cannot be deleted.`);
    all.splice(all.indexOf(c), 1);
    return { status: 204 };
  }),
};
