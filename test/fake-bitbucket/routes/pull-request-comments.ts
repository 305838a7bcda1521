// Routes for what a pull request holds: activities, comments, tasks (blocker comments), changes, diffs, commits.
import { type FakeComment, type FakePullRequest, pullRequestsOf, tick } from '../pull-request-state.ts';
import {
  bitbucketError,
  page,
  type RouteContext,
  type RouteResult,
  type RouteTable,
} from '../route-types.ts';
import { commentJson, findPullRequest, userJson } from './pull-request-json.ts';

const invalid = (message: string) =>
  bitbucketError(400, message, 'com.atlassian.bitbucket.validation.ArgumentValidationException');

function withPr(handle: (ctx: RouteContext, pr: FakePullRequest) => RouteResult) {
  return (ctx: RouteContext) => {
    const found = findPullRequest(ctx);
    return 'pr' in found ? handle(ctx, found.pr) : found;
  };
}

function withComment(
  blocker: boolean,
  handle: (ctx: RouteContext, pr: FakePullRequest, c: FakeComment) => RouteResult,
) {
  return withPr((ctx, pr) => {
    const c = pr.comments.find(
      (x) => String(x.id) === ctx.params.commentId && (!blocker || x.severity === 'BLOCKER'),
    );
    if (!c)
      return bitbucketError(
        404,
        `Comment ${ctx.params.commentId} does not exist on pull request ${pr.id}.`,
        'com.atlassian.bitbucket.comment.NoSuchCommentException',
      );
    return handle(ctx, pr, c);
  });
}

const rootOf = (pr: FakePullRequest, c: FakeComment): FakeComment =>
  c.parentId === undefined ? c : rootOf(pr, pr.comments.find((x) => x.id === c.parentId)!);

function createComment(ctx: RouteContext, pr: FakePullRequest, severity: 'NORMAL' | 'BLOCKER'): RouteResult {
  const body = (ctx.body ?? {}) as {
    text?: string;
    parent?: { id?: number };
    severity?: string;
    state?: string;
    anchor?: {
      path?: string;
      line?: number;
      lineType?: 'ADDED' | 'REMOVED' | 'CONTEXT';
      fileType?: 'FROM' | 'TO';
    };
  };
  if (!body.text?.trim()) return invalid('text: A comment needs text.');
  const parentId = body.parent?.id;
  if (parentId !== undefined && !pr.comments.some((c) => c.id === parentId))
    return invalid(`parent: comment ${parentId} does not exist.`);
  const anchor = body.anchor;
  if (anchor) {
    const file = pr.files.find((f) => f.path === anchor.path);
    if (!file) return invalid(`anchor.path: ${anchor.path} is not changed by this pull request.`);
    if (anchor.line !== undefined && (!Number.isInteger(anchor.line) || anchor.line < 1))
      return invalid('anchor.line: must be a line number.');
  }
  const d = pullRequestsOf(ctx.state);
  const comment: FakeComment = {
    id: d.nextId++,
    version: 0,
    text: body.text,
    author: ctx.user!.name,
    created: tick(d),
    ...(parentId !== undefined && { parentId }),
    severity: body.severity === 'BLOCKER' ? 'BLOCKER' : severity,
    state: body.state === 'PENDING' ? 'PENDING' : 'OPEN',
    threadResolved: false,
    ...(anchor?.path && {
      anchor: {
        path: anchor.path,
        ...(anchor.line !== undefined && { line: anchor.line, lineType: anchor.lineType ?? 'ADDED' }),
        fileType: anchor.fileType ?? 'TO',
      },
    }),
  };
  pr.comments.push(comment);
  return { status: 201, body: commentJson(comment, pr, ctx) };
}

function updateComment(ctx: RouteContext, pr: FakePullRequest, c: FakeComment): RouteResult {
  const body = (ctx.body ?? {}) as {
    version?: number;
    text?: string;
    state?: string;
    threadResolved?: boolean;
    severity?: string;
  };
  if (body.version !== c.version)
    return bitbucketError(
      409,
      `You are attempting to modify a comment based on out-of-date information (version ${body.version}, current ${c.version}).`,
      'com.atlassian.bitbucket.comment.CommentOutOfDateException',
    );
  if (body.text !== undefined) c.text = body.text;
  if (body.state === 'OPEN' || body.state === 'RESOLVED') c.state = body.state;
  if (body.severity === 'NORMAL' || body.severity === 'BLOCKER') c.severity = body.severity;
  if (body.threadResolved !== undefined) {
    if (c.parentId !== undefined)
      return invalid('threadResolved: only the first comment of a thread can resolve it.');
    c.threadResolved = body.threadResolved;
  }
  c.version++;
  return { status: 200, body: commentJson(c, pr, ctx) };
}

function deleteComment(ctx: RouteContext, pr: FakePullRequest, c: FakeComment): RouteResult {
  if (ctx.query.get('version') !== String(c.version))
    return bitbucketError(409, `Comment ${c.id} has changed (current version ${c.version}).`);
  if (pr.comments.some((x) => x.parentId === c.id))
    return bitbucketError(409, `Comment ${c.id} has replies and cannot be deleted.`);
  pr.comments = pr.comments.filter((x) => x !== c);
  return { status: 204 };
}

function pathJson(path: string) {
  const components = path.split('/');
  const name = components.at(-1)!;
  const dot = name.lastIndexOf('.');
  return {
    components,
    name,
    parent: components.slice(0, -1).join('/'),
    ...(dot > 0 && { extension: name.slice(dot + 1) }),
    toString: path,
  };
}

/** The routes for a pull request's activities, comments, tasks, changes, diff and commits. */
export const pullRequestCommentRoutes: RouteTable = {
  getActivities: {
    auth: 'optional',
    handle: withPr((ctx, pr) => {
      const author = pr.participants.find((p) => p.role === 'AUTHOR')!;
      const commented = pr.comments
        .filter((c) => c.state !== 'PENDING')
        .map((c) => {
          const root = rootOf(pr, c);
          return {
            id: 1000 + c.id,
            createdDate: c.created,
            user: userJson(c.author, ctx),
            action: 'COMMENTED',
            commentAction: c.parentId === undefined ? 'ADDED' : 'REPLIED',
            comment: commentJson(c, pr, ctx),
            ...(root.anchor && { commentAnchor: commentJson(root, pr, ctx).anchor }),
          };
        });
      const opened = { id: 999, createdDate: pr.created, user: userJson(author.name, ctx), action: 'OPENED' };
      const all = [...commented, opened].sort((a, b) => b.createdDate - a.createdDate);
      return page(all, ctx.query);
    }),
  },
  createComment_2: { auth: 'required', handle: withPr((ctx, pr) => createComment(ctx, pr, 'NORMAL')) },
  getComment_2: {
    auth: 'optional',
    handle: withComment(false, (ctx, pr, c) => ({ status: 200, body: commentJson(c, pr, ctx) })),
  },
  updateComment_2: { auth: 'required', handle: withComment(false, updateComment) },
  deleteComment_2: { auth: 'required', handle: withComment(false, deleteComment) },
  getComments_1: {
    auth: 'optional',
    handle: withPr((ctx, pr) => {
      const states = [...ctx.query.getAll('state'), ...ctx.query.getAll('states')].map((s) =>
        s.toUpperCase(),
      );
      const tasks = pr.comments.filter(
        (c) => c.severity === 'BLOCKER' && (!states.length || states.includes(c.state)),
      );
      return page(
        tasks.map((c) => commentJson(c, pr, ctx)),
        ctx.query,
      );
    }),
  },
  createComment_1: { auth: 'required', handle: withPr((ctx, pr) => createComment(ctx, pr, 'BLOCKER')) },
  getComment_1: {
    auth: 'optional',
    handle: withComment(true, (ctx, pr, c) => ({ status: 200, body: commentJson(c, pr, ctx) })),
  },
  updateComment_1: { auth: 'required', handle: withComment(true, updateComment) },
  deleteComment_1: { auth: 'required', handle: withComment(true, deleteComment) },
  streamChanges_1: {
    auth: 'optional',
    handle: withPr((ctx, pr) =>
      page(
        pr.files.map((f) => ({
          path: pathJson(f.path),
          ...(f.srcPath && { srcPath: pathJson(f.srcPath) }),
          type: f.type,
          nodeType: 'FILE',
          executable: false,
        })),
        ctx.query,
      ),
    ),
  },
  streamDiff_2: {
    auth: 'optional',
    handle: withPr((ctx, pr) => {
      const file = pr.files.find((f) => f.path === ctx.params.path);
      if (!file) return bitbucketError(404, `${ctx.params.path} is not changed by pull request ${pr.id}.`);
      return {
        status: 200,
        body: {
          binary: false,
          ...(file.type !== 'ADD' && { source: pathJson(file.srcPath ?? file.path) }),
          ...(file.type !== 'DELETE' && { destination: pathJson(file.path) }),
          hunks: file.hunks.map((h) => ({
            ...h,
            segments: h.segments.map((s) => ({
              type: s.type,
              lines: s.lines.map((line) => ({ line })),
              truncated: false,
            })),
            truncated: false,
          })),
          truncated: false,
        },
      };
    }),
  },
  getCommits_1: {
    auth: 'optional',
    handle: withPr((ctx, pr) =>
      page(
        pr.commits.map((c) => {
          const u = userJson(c.author, ctx);
          return {
            id: c.id,
            displayId: c.id.slice(0, 11),
            message: c.message,
            author: { name: u.name, emailAddress: u.emailAddress },
            authorTimestamp: c.timestamp,
            committer: { name: u.name, emailAddress: u.emailAddress },
            committerTimestamp: c.timestamp,
            parents: [],
          };
        }),
        ctx.query,
      ),
    ),
  },
};
