// Routes for commit history, one commit, and the commits between two refs.
import { type FakeCommit, gitOf, history, resolveRef } from '../core-state.ts';
import { bitbucketError, page, type RouteContext, type RouteTable } from '../route-types.ts';
import { isResult, repoOr404 } from './lookup.ts';

function commitJson(c: FakeCommit, ctx: RouteContext) {
  const user = ctx.state.users.find((u) => u.name === c.author);
  const person = {
    name: c.author,
    emailAddress: user?.email ?? `${c.author}@example.test`,
    displayName: user?.displayName,
  };
  return {
    id: c.id,
    displayId: c.id.slice(0, 11),
    message: c.message,
    author: person,
    authorTimestamp: c.timestamp,
    committer: person,
    committerTimestamp: c.timestamp,
    parents: c.parents.map((id) => ({ id, displayId: id.slice(0, 11) })),
  };
}

const noCommit = (ref: string) =>
  bitbucketError(
    404,
    `Commit '${ref}' does not exist in this repository.`,
    'com.atlassian.bitbucket.commit.NoSuchCommitException',
  );

/** getCommits (path, since, until, merges), getCommit and streamCommits (compare). */
export const commitRoutes: RouteTable = {
  getCommits: {
    auth: 'optional',
    handle: (ctx) => {
      const r = repoOr404(ctx);
      if (isResult(r)) return r;
      const git = gitOf(ctx.state, r);
      const untilRef = ctx.query.get('until') ?? git.defaultBranch;
      const until = resolveRef(git, untilRef);
      if (!until) return noCommit(untilRef);
      const sinceRef = ctx.query.get('since');
      const since = sinceRef ? resolveRef(git, sinceRef) : undefined;
      if (sinceRef && !since) return noCommit(sinceRef);
      const path = ctx.query.get('path');
      const merges = ctx.query.get('merges') ?? 'include';
      const commits = history(git, until, since)
        .filter(
          (c) => !path || c.paths.some((p) => p === path || p.startsWith(`${path.replace(/\/$/, '')}/`)),
        )
        .filter((c) =>
          merges === 'only' ? c.parents.length > 1 : merges === 'exclude' ? c.parents.length < 2 : true,
        );
      return page(
        commits.map((c) => commitJson(c, ctx)),
        ctx.query,
      );
    },
  },
  getCommit: {
    auth: 'optional',
    handle: (ctx) => {
      const r = repoOr404(ctx);
      if (isResult(r)) return r;
      const git = gitOf(ctx.state, r);
      const id = resolveRef(git, ctx.params.commitId);
      return id
        ? { status: 200, body: commitJson(git.commits.get(id)!, ctx) }
        : noCommit(ctx.params.commitId);
    },
  },
  streamCommits: {
    auth: 'optional',
    handle: (ctx) => {
      const r = repoOr404(ctx);
      if (isResult(r)) return r;
      const git = gitOf(ctx.state, r);
      const fromRef = ctx.query.get('from') ?? '';
      const toRef = ctx.query.get('to') ?? git.defaultBranch;
      const from = resolveRef(git, fromRef);
      const to = resolveRef(git, toRef);
      if (!from) return noCommit(fromRef);
      if (!to) return noCommit(toRef);
      // Commits on `from` that `to` lacks, as Bitbucket's compare view lists them.
      return page(
        history(git, from, to).map((c) => commitJson(c, ctx)),
        ctx.query,
      );
    },
  },
};
