import type { BbdcConfig } from '../../../generated/types/cli/config.ts';
import { ValidationError } from '../../core/errors.ts';
import type { GitRunner } from '../deps.ts';
import { findHost } from './hosts.ts';
import { type ParsedRemote, parseRemoteUrl } from './remote-url.ts';

/** A git remote that names a Bitbucket repository on a known (or inferred) host. */
export type RemoteRepo = { remote: string; url: string; hostUrl: string; project: string; slug: string };

/** Lists `name url` pairs of the fetch remotes in `cwd`; none outside a git work tree. */
export async function listRemotes(git: GitRunner, cwd: string): Promise<{ name: string; url: string }[]> {
  const res = await git(['remote', '-v'], cwd);
  if (res.code !== 0) return [];
  const seen = new Map<string, string>();
  for (const line of res.stdout.split('\n')) {
    const m = /^(\S+)\s+(\S+)\s+\(fetch\)$/.exec(line.trim());
    if (m && !seen.has(m[1])) seen.set(m[1], m[2]);
  }
  return [...seen].map(([name, url]) => ({ name, url }));
}

/** The stored host a parsed remote belongs to; with no stored hosts, the host the remote itself names. */
export function hostFor(config: BbdcConfig, remote: ParsedRemote): string | undefined {
  const hosts = config.hosts ?? [];
  if (remote.scheme !== 'ssh') {
    const url = `${remote.scheme}://${remote.host}${remote.contextPath}`;
    const match = findHost(config, url);
    if (match) return match.host.url;
    return hosts.length ? undefined : url;
  }
  const byAlias =
    hosts.find((h) => (h.aliases ?? []).includes(remote.host)) ??
    hosts.find((h) => (h.aliases ?? []).includes(remote.hostname)) ??
    hosts.find((h) => new URL(h.url).hostname === remote.hostname) ??
    // scp-style remotes carry no port, so `host` matches an alias `host:7999`.
    hosts.find((h) => (h.aliases ?? []).some((a) => a.split(':')[0] === remote.hostname));
  if (byAlias) return byAlias.url;
  return hosts.length ? undefined : `https://${remote.hostname}`;
}

/** The remotes that point at Bitbucket repositories on stored hosts (on any host when none is stored). */
export async function remoteRepos(git: GitRunner, cwd: string, config: BbdcConfig): Promise<RemoteRepo[]> {
  const result: RemoteRepo[] = [];
  for (const { name, url } of await listRemotes(git, cwd)) {
    const parsed = parseRemoteUrl(url);
    const hostUrl = parsed && hostFor(config, parsed);
    if (parsed && hostUrl)
      result.push({ remote: name, url, hostUrl, project: parsed.project, slug: parsed.slug });
  }
  return result;
}

/** The single repository the remotes agree on; a ValidationError listing them when they point at several. */
export function pickRemote(repos: RemoteRepo[]): RemoteRepo | undefined {
  const distinct = new Map(repos.map((r) => [`${r.hostUrl} ${r.project}/${r.slug}`, r]));
  if (distinct.size <= 1) return repos[0];
  throw new ValidationError(
    'the git remotes point at different repositories; choose one with -R [HOST/]PROJECT/slug',
    {
      details: repos.map((r) => `${r.remote}: ${r.project}/${r.slug} on ${r.hostUrl} (${r.url})`),
    },
  );
}
