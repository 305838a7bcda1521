// Finding the project or repository a route's path names, with Bitbucket's 404s and permission answers.
import { bitbucketError, type RouteContext, type RouteResult } from '../route-types.ts';

/** A resolved scope: `id` is `PROJ` or `PROJ/slug` with the project key as stored. */
export type RouteScope = { type: 'project' | 'repository'; id: string; project: string; repoId?: number };

/** The project (and repository, when the path has one) of the request, or Bitbucket's 404. */
export function findScope(ctx: RouteContext): RouteScope | RouteResult {
  const key = ctx.params.projectKey;
  const project = ctx.state.projects.find((p) => p.key.toUpperCase() === key.toUpperCase());
  if (!project || (!project.public && !ctx.user))
    return bitbucketError(
      404,
      `Project ${key} does not exist.`,
      'com.atlassian.bitbucket.project.NoSuchProjectException',
    );
  const slug = ctx.params.repositorySlug;
  if (slug === undefined) return { type: 'project', id: project.key, project: project.key };
  const repo = ctx.state.repos.find((r) => r.projectKey === project.key && r.slug === slug.toLowerCase());
  if (!repo || (!repo.public && !ctx.user))
    return bitbucketError(
      404,
      `Repository ${key}/${slug} does not exist.`,
      'com.atlassian.bitbucket.repository.NoSuchRepositoryException',
    );
  return { type: 'repository', id: `${project.key}/${repo.slug}`, project: project.key, repoId: repo.id };
}

/** True when findScope answered with an error. */
export const isError = (s: RouteScope | RouteResult): s is RouteResult => 'status' in s;

/** Bitbucket answers 401 when the caller lacks the admin permission a settings resource needs. */
export function needsAdmin(ctx: RouteContext, scope: RouteScope): RouteResult | undefined {
  if (ctx.user?.admin) return undefined;
  const permission = scope.type === 'project' ? 'PROJECT_ADMIN' : 'REPO_ADMIN';
  return bitbucketError(
    401,
    `You are not permitted to access this resource: ${permission} is required on ${scope.id}.`,
    'com.atlassian.bitbucket.AuthorisationException',
  );
}

/** The scope when it exists and the caller administers it, else the error to answer with. */
export function adminScope(ctx: RouteContext): RouteScope | RouteResult {
  const scope = findScope(ctx);
  if (isError(scope)) return scope;
  return needsAdmin(ctx, scope) ?? scope;
}
