/**
 * A URL's scheme and `//` (RFC 3986: a letter, then letters, digits, `+`, `.`, `-`), in either case. The letters are
 * spelled out rather than matched with the `i` flag: V8 builds a case-insensitive class from ICU's case-folding
 * tables, about 0.8 million instructions the first time in each process, and every command that takes -R runs this.
 */
export const urlScheme = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;

/** A Bitbucket repository as named by a git remote URL. */
export type ParsedRemote = {
  scheme: 'http' | 'https' | 'ssh';
  /** `host` or `host:port` as written in the URL. */
  host: string;
  hostname: string;
  /** Web context path for http(s) remotes, e.g. `/bitbucket`; empty for ssh. */
  contextPath: string;
  /** Project key, upper-case, or `~user` for a personal repository. */
  project: string;
  slug: string;
};

/** Normalizes a project key: personal namespaces keep `~user` in lower case, others are upper-case. */
export function normalizeProjectKey(key: string): string {
  return key.startsWith('~') ? key.toLowerCase() : key.toUpperCase();
}

function repoParts(path: string): { project: string; slug: string } | undefined {
  const m = /^\/?(?:scm\/)?([^/]+)\/([^/]+?)(?:\.git)?\/?$/.exec(path);
  if (!m) return undefined;
  return {
    project: normalizeProjectKey(decodeURIComponent(m[1])),
    slug: decodeURIComponent(m[2]).toLowerCase(),
  };
}

/**
 * Parses the remote forms Bitbucket hands out: `https://host/scm/PROJ/repo.git` (with a context path),
 * `ssh://git@host:7999/PROJ/repo.git` (with or without `scm/`), scp-style `git@host:PROJ/repo.git`, and `~user`
 * personal namespaces; anything else is undefined.
 */
export function parseRemoteUrl(remote: string): ParsedRemote | undefined {
  const text = remote.trim();
  const scp = /^(?:[^@/\s]+@)?([^:/\s]+):(?!\/)(.+)$/.exec(text);
  if (scp && !text.includes('://')) {
    const parts = repoParts(scp[2]);
    return (
      parts && {
        scheme: 'ssh',
        host: scp[1].toLowerCase(),
        hostname: scp[1].toLowerCase(),
        contextPath: '',
        ...parts,
      }
    );
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  const scheme = url.protocol.replace(':', '');
  if (scheme === 'ssh') {
    const parts = repoParts(url.pathname);
    return parts && { scheme, host: url.host, hostname: url.hostname, contextPath: '', ...parts };
  }
  if (scheme !== 'http' && scheme !== 'https') return undefined;
  const m = /^(.*)\/scm\/([^/]+\/[^/]+)$/.exec(url.pathname.replace(/\/+$/, ''));
  const parts = m && repoParts(m[2]);
  if (!m || !parts) return undefined;
  return { scheme, host: url.host, hostname: url.hostname, contextPath: m[1], ...parts };
}
