import type { Repository } from '../../../generated/types/cli/output/repo-list.ts';
import { segment } from './path.ts';

/** A repository as the Bitbucket REST API returns it (the fields bbdc reads). */
export type RestRepository = {
  id: number;
  slug: string;
  name: string;
  description?: string;
  public?: boolean;
  archived?: boolean;
  state?: string;
  project: { key: string };
  origin?: { slug: string; project: { key: string }; links?: RestRepository['links'] };
  links?: { self?: { href: string }[]; clone?: { href: string; name: string }[] };
};

/**
 * The body of a repository update: the PUT replaces the repository's settable fields, so every one is sent as the
 * server has it now, with `changes` applied (a description or visibility left out would be erased).
 */
export function repositoryBody(current: RestRepository, changes: Partial<RestRepository>) {
  return {
    name: current.name,
    ...(current.description !== undefined && { description: current.description }),
    public: current.public === true,
    archived: current.archived === true,
    ...changes,
  };
}

/** The repository shape bbdc prints, from the REST shape. */
export function toRepository(r: RestRepository): Repository {
  const clone = Object.fromEntries((r.links?.clone ?? []).map((l) => [l.name, l.href]));
  const result: Repository = { project: r.project.key, slug: r.slug, name: r.name, id: r.id };
  if (r.description) result.description = r.description;
  if (r.public !== undefined) result.public = r.public;
  if (r.archived !== undefined) result.archived = r.archived;
  if (r.state !== undefined) result.state = r.state;
  if (r.origin) result.forkOf = `${r.origin.project.key}/${r.origin.slug}`;
  if (r.links?.self?.[0]) result.url = r.links.self[0].href;
  if (clone.http || clone.ssh)
    result.cloneUrls = { ...(clone.http && { http: clone.http }), ...(clone.ssh && { ssh: clone.ssh }) };
  return result;
}

/** The REST path of a repository. */
export function repoPath(project: string, slug: string): string {
  return `/rest/api/latest/projects/${segment('project', project)}/repos/${segment('repository', slug)}`;
}

/** `PROJECT/slug`, as bbdc names a repository in output. */
export function repoName(project: string, slug: string): string {
  return `${project}/${slug}`;
}
