import { segment } from '../api/path.ts';
import type { RestRepository } from '../api/repositories.ts';

/** How one clone attempt authenticates: an SSH key, the stored token over HTTPS, or credentials typed at a prompt. */
export type CloneMethod = 'ssh' | 'https-token' | 'https-prompt';

/** One attempt of a clone: the method and the URL git is given. */
export type CloneStep = { method: CloneMethod; url: string };

/** The transport the user asked for: `auto` tries ssh, then the token, then a prompt. */
export type TransportChoice = 'auto' | 'ssh' | 'https';

/** A repository's clone URLs; `https` is always known, `ssh` only when the server offers SSH. */
export type CloneUrls = { ssh?: string; https: string };

/** The `/scm/` HTTP(S) clone URL Bitbucket serves for a repository, e.g. `https://host/scm/~alice/dotfiles.git`. */
export function scmUrl(serverUrl: string, project: string, slug: string): string {
  return `${serverUrl}/scm/${segment('project', project.toLowerCase())}/${segment('repository', slug)}.git`;
}

/**
 * The clone URLs from a repository's REST `links.clone`; when the server lists only an ssh URL, the HTTP(S)
 * fallback is the normalized `/scm/` URL on the server bbdc talks to.
 */
export function cloneUrls(
  repo: Pick<RestRepository, 'slug' | 'project' | 'links'>,
  serverUrl: string,
): CloneUrls {
  const links = repo.links?.clone ?? [];
  const ssh = links.find((l) => l.name === 'ssh')?.href;
  const http = links.find((l) => l.name === 'http' || l.name === 'https')?.href;
  return { ...(ssh && { ssh }), https: http ?? scmUrl(serverUrl, repo.project.key, repo.slug) };
}

/**
 * The attempts in order: ssh (when the server offers it), HTTPS with the stored token (when there is one), then
 * HTTPS with credentials typed at a prompt (only when bbdc may ask). `--ssh`/`--https` keep only their own kind.
 * `unusable` says why a forced transport cannot be tried at all.
 */
export function cloneSteps(o: {
  urls: CloneUrls;
  transport: TransportChoice;
  hasToken: boolean;
  canPrompt: boolean;
}): { steps: CloneStep[]; unusable?: string } {
  if (o.transport === 'ssh' && !o.urls.ssh) {
    return {
      steps: [],
      unusable: 'the server lists no ssh clone URL for it (SSH access may be off); use --https',
    };
  }
  const steps: CloneStep[] = [];
  if (o.transport !== 'https' && o.urls.ssh) steps.push({ method: 'ssh', url: o.urls.ssh });
  if (o.transport !== 'ssh') {
    if (o.hasToken) steps.push({ method: 'https-token', url: o.urls.https });
    if (o.canPrompt) steps.push({ method: 'https-prompt', url: o.urls.https });
  }
  return { steps };
}

/** How an attempt is named to people. */
export function describeMethod(method: CloneMethod): string {
  return {
    ssh: 'ssh',
    'https-token': 'HTTPS with the stored token',
    'https-prompt': 'HTTPS with credentials you type',
  }[method];
}
