// Which HTTP access tokens a `bbdc auth token` command acts on: yours (default), a project's, or a repository's.
import type { AccessToken } from '../../../../../generated/types/cli/output/access-token.ts';
import { UsageError } from '../../../../core/errors.ts';
import type { BitbucketClient } from '../../../api/client.ts';
import { segment } from '../../../api/path.ts';
import { utcIso } from '../../../api/timestamps.ts';
import type { CommandDeps, FlagSpec } from '../../../command.ts';
import { normalizeProjectKey } from '../../../config/remote-url.ts';

/** A token as Bitbucket returns it; `token` (the secret) only in the answer to a create. */
export type RestToken = {
  id: string;
  name: string;
  createdDate?: number;
  expiryDate?: number;
  expiryDays?: number;
  lastAuthenticated?: number;
  permissions?: string[];
  token?: string;
};

export const scopeFlags: Record<string, FlagSpec> = {
  project: {
    type: 'string',
    shortFlag: 'p',
    value: 'KEY',
    description: "A project's tokens instead of yours",
  },
  repository: {
    type: 'boolean',
    description: "The repository's tokens (-R, BBDC_REPO or the git remote) instead of yours",
  },
};

/** What the scope flags asked for. */
export type TokenScopeOption = { project?: string; repository: boolean };

/** The scope flags, refusing both at once. */
export function scopeOption(flags: Record<string, unknown>): TokenScopeOption {
  if (flags.project && flags.repository) throw new UsageError('pass --project or --repository, not both');
  return {
    project: flags.project ? normalizeProjectKey(String(flags.project)) : undefined,
    repository: flags.repository === true,
  };
}

/** The resolved scope: its label, REST base path and client. */
export type TokenScope = { label: string; base: string; client: BitbucketClient; host: string };

/** Resolves the scope; your own tokens need your user slug, read from the server. */
export async function resolveTokenScope(o: TokenScopeOption, deps: CommandDeps): Promise<TokenScope> {
  const root = '/rest/access-tokens/latest';
  if (o.repository) {
    const repo = await deps.repo();
    const client = await deps.client(repo.host);
    return {
      label: `repository ${repo.project}/${repo.slug}`,
      base: `${root}/projects/${segment('project', repo.project)}/repos/${segment('repository', repo.slug)}`,
      client,
      host: repo.host.url,
    };
  }
  const host = await deps.host();
  const client = await deps.client(host);
  if (o.project)
    return {
      label: `project ${o.project}`,
      base: `${root}/projects/${segment('project', o.project)}`,
      client,
      host: host.url,
    };
  await client.get('/rest/api/latest/application-properties');
  const me = client.username;
  if (!me)
    throw new UsageError(
      'your own tokens need a login: run `bbdc auth login` (or pass --project / --repository)',
    );
  const user = await client.get<{ slug: string }>(`/rest/api/latest/users/${segment('user', me)}`);
  return { label: `user ${me}`, base: `${root}/users/${segment('user', user.slug)}`, client, host: host.url };
}

/** The token shape bbdc prints; the secret only when the server just created it. */
export function toToken(t: RestToken, scope: string): AccessToken {
  const iso = (ms?: number) => (ms === undefined ? undefined : utcIso(ms));
  return {
    id: t.id,
    name: t.name,
    scope,
    permissions: t.permissions ?? [],
    ...(t.createdDate !== undefined && { createdDate: iso(t.createdDate) }),
    ...(t.expiryDate !== undefined && { expiryDate: iso(t.expiryDate) }),
    ...(t.lastAuthenticated !== undefined && { lastAuthenticated: iso(t.lastAuthenticated) }),
  };
}

/** Parses --permissions (repeated or comma-separated): REPO_READ, PROJECT_ADMIN, ... */
export function parsePermissions(value: unknown): string[] | undefined {
  // An unused repeatable flag arrives as [].
  if (value === undefined || (Array.isArray(value) && value.length === 0)) return undefined;
  const list = (Array.isArray(value) ? value : [value])
    .flatMap((v) => String(v).split(','))
    .map((v) => v.trim().toUpperCase())
    .filter(Boolean);
  const bad = list.filter((p) => !/^(REPO|PROJECT)_(READ|WRITE|ADMIN)$/.test(p));
  if (bad.length)
    throw new UsageError(
      `--permissions: ${bad.join(', ')} is not REPO_READ|WRITE|ADMIN or PROJECT_READ|WRITE|ADMIN`,
    );
  return list;
}

export const tokenIdArg = { name: 'id', required: true, description: 'Token id (see bbdc auth token list)' };
