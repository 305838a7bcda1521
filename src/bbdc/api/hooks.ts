import type { Hook } from '../../../generated/types/cli/output/hook-list.ts';
import { UsageError } from '../../core/errors.ts';
import type { BitbucketClient } from './client.ts';
import { collectPages } from './paging.ts';
import { segment } from './path.ts';
import { type Scope, scopeLabel, scopePath } from './scope.ts';

/** A repository hook as GET .../settings/hooks returns it. */
export type RestHook = {
  enabled: boolean;
  configured: boolean;
  details: {
    key: string;
    name: string;
    type: string;
    description?: string;
    version?: string;
    configFormKey?: string;
  };
  scope?: { type: string; resourceId?: number };
};

/** The REST path of the hooks of a scope, or of one hook. */
export function hooksPath(scope: Scope, key?: string): string {
  const base = `${scopePath(scope)}/settings/hooks`;
  return key ? `${base}/${segment('hook key', key)}` : base;
}

/** The part of a hook key after the plugin key, e.g. `force-push-hook`. */
export function shortHookKey(key: string): string {
  return key.includes(':') ? key.slice(key.lastIndexOf(':') + 1) : key;
}

/** The printed hook, from the REST shape; `inheritedFrom` says where a repository hook's state comes from. */
export function toHook(h: RestHook, scope: Scope): Hook {
  const hook: Hook = {
    key: h.details.key,
    shortKey: shortHookKey(h.details.key),
    name: h.details.name,
    type: h.details.type,
    enabled: h.enabled,
    configured: h.configured,
    configurable: Boolean(h.details.configFormKey),
  };
  const own = scope.type === 'project' ? 'PROJECT' : 'REPOSITORY';
  if (h.scope?.type && h.scope.type !== own) hook.inheritedFrom = h.scope.type.toLowerCase();
  if (h.details.description) hook.description = h.details.description;
  return hook;
}

/** Resolves a full hook key, or a short one such as `force-push-hook`, against the hooks the scope has. */
export async function resolveHookKey(client: BitbucketClient, scope: Scope, key: string): Promise<string> {
  if (key.includes(':')) return key;
  const { values } = await collectPages<RestHook>(client, hooksPath(scope), {}, undefined);
  const matches = values.filter((h) => shortHookKey(h.details.key) === key).map((h) => h.details.key);
  if (matches.length === 1) return matches[0];
  if (matches.length > 1) {
    throw new UsageError(`hook "${key}" is ambiguous in ${scopeLabel(scope)}; use the full key`, {
      details: matches,
    });
  }
  throw new UsageError(`no hook "${key}" in ${scopeLabel(scope)}; run \`bbdc hook list\` to see the keys`);
}
