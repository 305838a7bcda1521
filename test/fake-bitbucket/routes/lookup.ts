// Finds the project or repository a route names, answering Bitbucket's 404 or 403 when it cannot be used.
import { projectRank, rank, repoRank } from '../core-state.ts';
import { bitbucketError, type Permission, type RouteContext, type RouteResult } from '../route-types.ts';
import type { FakeProject, FakeRepo } from '../state.ts';
import { findProject, noSuchProject, visible } from './projects-repos.ts';

/** The project in the path, or the 404 to answer. */
export function projectOr404(ctx: RouteContext): FakeProject | RouteResult {
  const p = findProject(ctx);
  if (!p || (!p.public && !ctx.user)) return noSuchProject(ctx);
  return p;
}

/** The repository in the path, or the 404 to answer. */
export function repoOr404(ctx: RouteContext): FakeRepo | RouteResult {
  const p = findProject(ctx);
  const r =
    p &&
    ctx.state.repos.find((x) => x.projectKey === p.key && x.slug === ctx.params.repositorySlug.toLowerCase());
  if (!r || !visible(ctx)(r))
    return bitbucketError(
      404,
      `Repository ${ctx.params.projectKey}/${ctx.params.repositorySlug} does not exist.`,
      'com.atlassian.bitbucket.repository.NoSuchRepositoryException',
    );
  return r;
}

/** True for the error answers the lookups return. */
export function isResult(x: unknown): x is RouteResult {
  return typeof (x as RouteResult).status === 'number';
}

const forbidden = (what: string) =>
  bitbucketError(403, `You are not permitted to ${what}.`, 'com.atlassian.bitbucket.AuthorisationException');

/** A 403 unless the caller holds `permission` (e.g. PROJECT_ADMIN) on the project. */
export function needProject(ctx: RouteContext, p: FakeProject, permission: string): RouteResult | undefined {
  return projectRank(ctx.state, ctx.user, p.key) >= rank(permission)
    ? undefined
    : forbidden(`do this in project ${p.key} without ${permission}`);
}

/** A 403 unless the caller holds `permission` (e.g. REPO_WRITE) on the repository. */
export function needRepo(ctx: RouteContext, r: FakeRepo, permission: string): RouteResult | undefined {
  return repoRank(ctx.state, ctx.user, r) >= rank(permission)
    ? undefined
    : forbidden(`do this in ${r.projectKey}/${r.slug} without ${permission}`);
}

/**
 * The declarative check the server runs before a route's handler: a 404 for a repository or project the caller
 * cannot see, a 401 AuthorisationException for one it cannot change as `permission` requires. Every route under a
 * project or a repository reads it: without a permission to check, the path's repository (else project) must still
 * exist and be visible, as Bitbucket answers a list of a missing repository's pull requests with its 404, not with
 * an empty page.
 */
export function checkPermission(
  ctx: RouteContext,
  permission: Permission | undefined,
): RouteResult | undefined {
  if (!permission && ctx.params.projectKey === undefined) return undefined;
  const onRepo = ctx.params.repositorySlug !== undefined && (!permission || permission.startsWith('REPO_'));
  const target = onRepo ? repoOr404(ctx) : projectOr404(ctx);
  if (isResult(target)) return target;
  if (!permission) return undefined;
  const held = onRepo
    ? repoRank(ctx.state, ctx.user, target as FakeRepo)
    : projectRank(ctx.state, ctx.user, (target as FakeProject).key);
  if (held >= rank(permission.replace(/^REPO_|^PROJECT_/, onRepo ? 'REPO_' : 'PROJECT_'))) return undefined;
  return bitbucketError(
    401,
    `You are not permitted to access this resource: ${permission} is needed on ${onRepo ? `${ctx.params.projectKey}/${ctx.params.repositorySlug}` : ctx.params.projectKey}.`,
    'com.atlassian.bitbucket.AuthorisationException',
  );
}
