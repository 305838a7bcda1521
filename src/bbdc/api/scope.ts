import { pluginRepoPath, segment } from './path.ts';
import { repoPath } from './repositories.ts';

/** Where a setting lives: a whole project, or one repository. */
export type Scope =
  | { type: 'project'; project: string }
  | { type: 'repository'; project: string; slug: string };

/** `PROJ` for a project, `PROJ/slug` for a repository. */
export function scopeId(scope: Scope): string {
  return scope.type === 'project' ? scope.project : `${scope.project}/${scope.slug}`;
}

/** `project PROJ` or `repository PROJ/slug`, for messages. */
export function scopeLabel(scope: Scope): string {
  return `${scope.type} ${scopeId(scope)}`;
}

/** The REST path of the scope under /rest/api/latest. */
export function scopePath(scope: Scope): string {
  return scope.type === 'project'
    ? `/rest/api/latest/projects/${segment('project', scope.project)}`
    : repoPath(scope.project, scope.slug);
}

/** The scope under a plugin's REST root, e.g. `/rest/default-tasks/latest/projects/P` or `.../projects/P/repos/r`. */
export function pluginScopePath(plugin: string, scope: Scope): string {
  return scope.type === 'project'
    ? `/rest/${plugin}/latest/projects/${segment('project', scope.project)}`
    : pluginRepoPath(plugin, scope.project, scope.slug);
}
