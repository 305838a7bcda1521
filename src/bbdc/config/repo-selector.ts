import { UsageError } from '../../core/errors.ts';
import { parseRepoFlag } from '../cli/repo-flag.ts';
import { normalizeProjectKey, type ParsedRemote, parseRemoteUrl, urlScheme } from './remote-url.ts';

/** A repository named on the command line: project (or `~user`), slug, and the host or remote it came with. */
export type RepoSelector = { project: string; slug: string; host?: string; remote?: ParsedRemote };

function webUrl(value: string): RepoSelector | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  const m = /^(.*?)\/(projects|users)\/([^/]+)\/repos\/([^/]+)/.exec(url.pathname);
  if (!m) return undefined;
  const project = m[2] === 'users' ? `~${decodeURIComponent(m[3])}` : decodeURIComponent(m[3]);
  return {
    project: normalizeProjectKey(project),
    slug: decodeURIComponent(m[4]).toLowerCase(),
    host: `${url.protocol}//${url.host}${m[1]}`,
  };
}

/**
 * Parses `PROJECT/slug`, `~user/slug`, `HOST/PROJECT/slug`, a clone URL (https `/scm/...`, `ssh://...` or
 * scp-style `git@host:PROJECT/slug.git`) or a web URL (`/projects/P/repos/s`, `/users/u/repos/s`).
 */
export function parseRepoSelector(value: string): RepoSelector {
  const text = value.trim();
  const isUrl = urlScheme.test(text) || /^[^@/\s]+@[^:/\s]+:/.test(text);
  if (isUrl) {
    const remote = parseRemoteUrl(text);
    if (remote) return { project: remote.project, slug: remote.slug, remote };
    const web = webUrl(text);
    if (web) return web;
    throw new UsageError(
      `"${value}" is not a Bitbucket repository URL; use a clone URL (https://host/scm/PROJ/repo.git, ssh://git@host:7999/PROJ/repo.git) or PROJECT/slug`,
    );
  }
  const flag = parseRepoFlag(text);
  return { project: flag.project, slug: flag.slug, ...(flag.host && { host: flag.host }) };
}
