import type { Scope } from '../api/scope.ts';
import type { CommandDeps, FlagSpec, ResolvedHost } from '../command.ts';
import { normalizeProjectKey } from '../config/remote-url.ts';

/** The `--project KEY` flag of commands that act on a project instead of the current repository. */
export const projectScopeFlag: FlagSpec = {
  type: 'string',
  shortFlag: 'p',
  value: 'KEY',
  description: 'Act on this project instead of a repository (-R or the git remote)',
};

/** The project key from `--project`, normalized, or undefined for repository scope. */
export function projectOption(value: unknown): string | undefined {
  return value ? normalizeProjectKey(String(value)) : undefined;
}

/** The scope and server: the named project, else the repository from -R, BBDC_PROJECT/BBDC_REPO or git. */
export async function resolveScope(
  deps: CommandDeps,
  project: string | undefined,
): Promise<{ scope: Scope; host: ResolvedHost }> {
  if (project) return { scope: { type: 'project', project }, host: await deps.host() };
  const repo = await deps.repo();
  return { scope: { type: 'repository', project: repo.project, slug: repo.slug }, host: repo.host };
}

/** resolveScope plus a client for its server: what the scoped command factories (restrictions, tasks) start with. */
export async function scopeClient(deps: CommandDeps, project: string | undefined) {
  const { scope, host } = await resolveScope(deps, project);
  return { scope, host, client: await deps.client(host) };
}
