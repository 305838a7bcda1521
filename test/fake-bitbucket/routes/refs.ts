// Routes for branches, the default branch and tags, over the seeded git data of core-state.ts.
import { type FakeGit, gitOf, resolveRef, sha } from '../core-state.ts';
import {
  bitbucketError,
  page,
  type RouteContext,
  type RouteResult,
  type RouteTable,
} from '../route-types.ts';
import type { FakeRepo } from '../state.ts';
import { isResult, needRepo, repoOr404 } from './lookup.ts';

type RefBody = {
  name?: string;
  startPoint?: string;
  message?: string;
  id?: string;
  dryRun?: boolean;
  endPoint?: string;
};

const branchJson = (git: FakeGit, name: string) => ({
  id: `refs/heads/${name}`,
  displayId: name,
  type: 'BRANCH',
  latestCommit: git.branches[name],
  latestChangeset: git.branches[name],
  isDefault: git.defaultBranch === name,
});
const tagJson = (git: FakeGit, name: string) => {
  const t = git.tags.get(name)!;
  return {
    id: `refs/tags/${name}`,
    displayId: name,
    type: 'TAG',
    latestCommit: t.commit,
    latestChangeset: t.commit,
    ...(t.hash && { hash: t.hash }),
  };
};
const invalid = (message: string) =>
  bitbucketError(400, message, 'com.atlassian.bitbucket.validation.ArgumentValidationException');

/** Runs `handle` with the repository and its git data, or answers the lookup's error. */
function withGit(
  ctx: RouteContext,
  need: string | undefined,
  handle: (r: FakeRepo, git: FakeGit) => RouteResult,
): RouteResult {
  const r = repoOr404(ctx);
  if (isResult(r)) return r;
  const denied = need ? needRepo(ctx, r, need) : undefined;
  return denied ?? handle(r, gitOf(ctx.state, r));
}

const byName = (filter: string | null) => (name: string) =>
  !filter || name.toLowerCase().includes(filter.toLowerCase());

/** Branches and tags. */
export const refRoutes: RouteTable = {
  getBranches: {
    auth: 'optional',
    handle: (ctx) =>
      withGit(ctx, undefined, (_r, git) => {
        const names = Object.keys(git.branches)
          .filter(byName(ctx.query.get('filterText')))
          .sort();
        if (ctx.query.get('orderBy') !== 'ALPHABETICAL')
          names.sort((a, b) => Number(b === git.defaultBranch) - Number(a === git.defaultBranch));
        return page(
          names.map((n) => branchJson(git, n)),
          ctx.query,
        );
      }),
  },
  createBranchForRepository: {
    auth: 'required',
    handle: (ctx) =>
      withGit(ctx, 'REPO_WRITE', (_r, git) => {
        const body = (ctx.body ?? {}) as RefBody;
        if (!body.name) return invalid('name: A branch name is required.');
        // Bitbucket resolves a startPoint that is a commit id as a commit, never as refs/heads/<id>.
        const commit = body.startPoint && resolveRef(git, body.startPoint);
        if (!commit) return invalid(`startPoint: ${body.startPoint} is not a branch, tag or commit.`);
        const name = body.name.replace(/^refs\/heads\//, '');
        if (name in git.branches)
          return bitbucketError(
            409,
            `Branch '${name}' already exists.`,
            'com.atlassian.bitbucket.repository.DuplicateRefException',
          );
        git.branches[name] = commit;
        return { status: 200, body: branchJson(git, name) };
      }),
  },
  deleteBranch: {
    auth: 'required',
    handle: (ctx) =>
      withGit(ctx, 'REPO_WRITE', (_r, git) => {
        const body = (ctx.body ?? {}) as RefBody;
        const name = (body.name ?? '').replace(/^refs\/heads\//, '');
        if (!(name in git.branches))
          return bitbucketError(
            404,
            `Branch '${name}' does not exist.`,
            'com.atlassian.bitbucket.repository.NoSuchBranchException',
          );
        if (name === git.defaultBranch) return invalid(`The default branch '${name}' cannot be deleted.`);
        if (body.endPoint && resolveRef(git, body.endPoint) !== git.branches[name])
          return bitbucketError(409, `Branch '${name}' has moved since ${body.endPoint}.`);
        if (!body.dryRun) delete git.branches[name];
        return { status: 204 };
      }),
  },
  getDefaultBranch_2: {
    auth: 'optional',
    handle: (ctx) =>
      withGit(ctx, undefined, (_r, git) => ({ status: 200, body: branchJson(git, git.defaultBranch) })),
  },
  setDefaultBranch_2: {
    auth: 'required',
    handle: (ctx) =>
      withGit(ctx, 'REPO_ADMIN', (_r, git) => {
        const name = String(((ctx.body ?? {}) as RefBody).id ?? '').replace(/^refs\/heads\//, '');
        if (!(name in git.branches))
          return invalid(`id: refs/heads/${name} is not a branch of this repository.`);
        git.defaultBranch = name;
        return { status: 204 };
      }),
  },
  getTags: {
    auth: 'optional',
    handle: (ctx) =>
      withGit(ctx, undefined, (_r, git) => {
        const names = [...git.tags.keys()].filter(byName(ctx.query.get('filterText'))).sort();
        return page(
          names.map((n) => tagJson(git, n)),
          ctx.query,
        );
      }),
  },
  getTag: {
    auth: 'optional',
    handle: (ctx) =>
      withGit(ctx, undefined, (_r, git) =>
        git.tags.has(ctx.params.name)
          ? { status: 200, body: tagJson(git, ctx.params.name) }
          : bitbucketError(
              404,
              `Tag '${ctx.params.name}' does not exist.`,
              'com.atlassian.bitbucket.repository.NoSuchTagException',
            ),
      ),
  },
  createTagForRepository: {
    auth: 'required',
    handle: (ctx) =>
      withGit(ctx, 'REPO_WRITE', (r, git) => {
        const body = (ctx.body ?? {}) as RefBody;
        if (!body.name) return invalid('name: A tag name is required.');
        const commit = body.startPoint && resolveRef(git, body.startPoint);
        if (!commit) return invalid(`startPoint: ${body.startPoint} is not a branch, tag or commit.`);
        if (git.tags.has(body.name))
          return bitbucketError(
            409,
            `Tag '${body.name}' already exists.`,
            'com.atlassian.bitbucket.repository.DuplicateRefException',
          );
        git.tags.set(body.name, {
          commit,
          ...(body.message && { message: body.message, hash: sha(`${r.id}:tag:${body.name}`) }),
        });
        return { status: 200, body: tagJson(git, body.name) };
      }),
  },
  deleteTag: {
    auth: 'required',
    handle: (ctx) =>
      withGit(ctx, 'REPO_WRITE', (_r, git) => {
        if (!git.tags.delete(ctx.params.name))
          return bitbucketError(
            404,
            `Tag '${ctx.params.name}' does not exist.`,
            'com.atlassian.bitbucket.repository.NoSuchTagException',
          );
        return { status: 204 };
      }),
  },
};
