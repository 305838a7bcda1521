import type { BbdcConfig, BbdcHost } from '../../../generated/types/cli/config.ts';
import { UsageError } from '../../core/errors.ts';
import { urlScheme } from './remote-url.ts';

/** Normalizes what a user typed as a host: a bare name gets https://, no trailing slash, lower-case host. */
export function normalizeHostUrl(input: string, what = 'host'): string {
  const trimmed = input.trim();
  const withScheme = urlScheme.test(trimmed) ? trimmed : `https://${trimmed}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new UsageError(`${what} "${input}" is not a host name or URL; use e.g. bitbucket.example.com`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UsageError(`${what} "${input}" must use http or https, not ${url.protocol.replace(':', '')}`);
  }
  return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
}

/** The `host[:port]` part of a URL, used to compare against aliases. */
export function hostPort(url: string): string {
  return new URL(url).host;
}

/** How a stored host was found for a requested one. */
export type HostMatch = { host: BbdcHost; matchedBy: 'exact' | 'alias' | 'other-scheme' | 'default' };

function otherScheme(url: string): string {
  return url.startsWith('https://') ? `http://${url.slice(8)}` : `https://${url.slice(7)}`;
}

/** True when `name` (host or host:port) is the host itself or one of its aliases. */
export function hostAnswersTo(host: BbdcHost, name: string): boolean {
  const wanted = name.toLowerCase();
  if (hostPort(host.url) === wanted) return true;
  return (host.aliases ?? []).some((a) => a.toLowerCase() === wanted);
}

/**
 * Finds the stored host for a URL: exact URL, then an alias (host:port or host), then the same host with the
 * other scheme; with no URL, the default host.
 */
export function findHost(config: BbdcConfig, url: string | undefined): HostMatch | undefined {
  const hosts = config.hosts ?? [];
  if (url === undefined) {
    const host = hosts.find((h) => h.url === config.defaultHost);
    return host ? { host, matchedBy: 'default' } : undefined;
  }
  const exact = hosts.find((h) => h.url === url);
  if (exact) return { host: exact, matchedBy: 'exact' };
  const parsed = new URL(url);
  const alias =
    hosts.find((h) => (h.aliases ?? []).includes(parsed.host)) ??
    hosts.find((h) => (h.aliases ?? []).includes(parsed.hostname));
  if (alias) return { host: alias, matchedBy: 'alias' };
  const other = hosts.find((h) => h.url === otherScheme(url));
  if (other) return { host: other, matchedBy: 'other-scheme' };
  return undefined;
}

/** Returns a config with `host` added or replacing the entry with the same URL; hosts stay sorted by URL. */
export function upsertHost(config: BbdcConfig, host: BbdcHost): BbdcConfig {
  const hosts = (config.hosts ?? []).filter((h) => h.url !== host.url);
  hosts.push(host);
  hosts.sort((a, b) => a.url.localeCompare(b.url));
  return { ...config, hosts };
}

/** Validates and normalizes an alias: `host` or `host:port`, no scheme or path. */
export function normalizeAlias(input: string): string {
  const value = input.trim().toLowerCase();
  if (!/^[a-z0-9.-]+(:\d{1,5})?$/.test(value)) {
    throw new UsageError(`alias "${input}" must be a host or host:port, e.g. bitbucket-ssh.example.com:7999`);
  }
  return value;
}
