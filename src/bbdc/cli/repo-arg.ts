import type { CommandDeps, RepoContext } from '../command.ts';
import { hostFor } from '../config/git-context.ts';
import { normalizeHostUrl } from '../config/hosts.ts';
import { parseRepoSelector, type RepoSelector } from '../config/repo-selector.ts';

/** The server URL a selector names, if it names one: its host, or the stored host its clone URL belongs to. */
export function selectorHostUrl(selector: RepoSelector, deps: CommandDeps): string | undefined {
  const remote = selector.remote;
  if (remote) {
    const stored = hostFor(deps.config(), remote);
    if (stored) return stored;
    return remote.scheme === 'ssh'
      ? `https://${remote.hostname}`
      : `${remote.scheme}://${remote.host}${remote.contextPath}`;
  }
  return selector.host ? normalizeHostUrl(selector.host, 'repository') : undefined;
}

/**
 * The repository a command acts on: the positional argument when given (any form parseRepoSelector takes),
 * else -R, BBDC_PROJECT/BBDC_REPO or the git remotes. --host still wins over a host inside the argument.
 */
export async function repoFromArg(arg: string | undefined, deps: CommandDeps): Promise<RepoContext> {
  if (!arg) return deps.repo();
  const selector = parseRepoSelector(arg);
  const url = selectorHostUrl(selector, deps);
  const host = url && !deps.globals.host ? await deps.resolveHost(url) : await deps.host();
  return { host, project: selector.project, slug: selector.slug, source: 'flag' };
}
