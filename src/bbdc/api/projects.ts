import type { Project } from '../../../generated/types/cli/output/project.ts';
import { segment } from './path.ts';

/** A project as the Bitbucket REST API returns it (the fields bbdc reads). */
export type RestProject = {
  key: string;
  id: number;
  name: string;
  description?: string;
  public?: boolean;
  type?: string;
  links?: { self?: { href: string }[] };
};

/** The body of a project update: the PUT replaces the project's settable fields, so each is sent as it is now. */
export function projectBody(current: RestProject, changes: Partial<RestProject>) {
  return {
    key: current.key,
    name: current.name,
    ...(current.description !== undefined && { description: current.description }),
    public: current.public === true,
    ...changes,
  };
}

/** The project shape bbdc prints, from the REST shape. */
export function toProject(p: RestProject): Project {
  const result: Project = {
    key: p.key,
    id: p.id,
    name: p.name,
    public: p.public === true,
    type: p.type === 'PERSONAL' ? 'PERSONAL' : 'NORMAL',
  };
  if (p.description) result.description = p.description;
  if (p.links?.self?.[0]) result.url = p.links.self[0].href;
  return result;
}

/** The REST path of a project. */
export function projectPath(key: string): string {
  return `/rest/api/latest/projects/${segment('project', key)}`;
}
