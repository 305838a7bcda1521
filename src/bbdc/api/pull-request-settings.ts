import type { RepoSettingsPullRequestsGetOutput as PrSettings } from '../../../generated/types/cli/output/repo-settings-pull-requests-get.ts';
import type { Logger } from '../output/logger.ts';
import type { BitbucketClient } from './client.ts';
import { statusOf } from './errors.ts';

/** A count-style merge check as servers send it: an integer (older form) or `{enabled, count}` (the document's form). */
type CountSetting = number | { enabled?: boolean; count?: string | number };

/** The pull request settings of a repository, as GET and POST .../settings/pull-requests answer. */
export type RestPrSettings = {
  mergeConfig?: {
    defaultStrategy?: { id: string; name?: string };
    strategies?: { id: string; name?: string; enabled?: boolean }[];
    type?: string;
  };
  requiredAllApprovers?: boolean;
  requiredAllTasksComplete?: boolean;
  requiredApprovers?: CountSetting;
  requiredSuccessfulBuilds?: CountSetting;
  'com.atlassian.bitbucket.server.bundled-hooks.requiredApproversMergeHook'?: CountSetting;
};

/** What `repo settings pull-requests update` may change; undefined means "leave as is". */
export type PrSettingsChange = {
  requiredApprovers?: number;
  requiredAllApprovers?: boolean;
  requiredAllTasksComplete?: boolean;
  defaultStrategy?: string;
  strategies?: string[];
};

/** The merge strategies Bitbucket ships for git repositories. */
export const mergeStrategies = [
  'no-ff',
  'ff',
  'ff-only',
  'rebase-no-ff',
  'rebase-ff-only',
  'squash',
  'squash-ff-only',
];

/** The count of a count-style setting in either form; a disabled check counts 0. */
export function countOf(value: CountSetting | undefined): number {
  if (value === undefined) return 0;
  if (typeof value === 'number') return value;
  return value.enabled === false ? 0 : Number(value.count ?? 0) || 0;
}

/** The printed settings, whichever form the server used. */
export function toPrSettings(r: RestPrSettings, repository: string): PrSettings {
  const hook = r['com.atlassian.bitbucket.server.bundled-hooks.requiredApproversMergeHook'];
  const strategies = (r.mergeConfig?.strategies ?? []).filter((s) => s.enabled !== false).map((s) => s.id);
  return {
    repository,
    mergeStrategy: {
      default: r.mergeConfig?.defaultStrategy?.id ?? '',
      enabled: strategies,
      source: (r.mergeConfig?.type ?? 'DEFAULT').toLowerCase(),
    },
    requiredApprovers: countOf(r.requiredApprovers ?? hook),
    requiredAllApprovers: r.requiredAllApprovers ?? false,
    requiredAllTasksComplete: r.requiredAllTasksComplete ?? false,
    requiredSuccessfulBuilds: countOf(r.requiredSuccessfulBuilds),
  };
}

/** The POST body for a change; `form` picks how required approvers are written. */
export function prSettingsBody(change: PrSettingsChange, current: PrSettings, form: 'object' | 'integer') {
  const body: Record<string, unknown> = {};
  if (change.requiredApprovers !== undefined) {
    const n = change.requiredApprovers;
    body.requiredApprovers = form === 'object' ? { enabled: n > 0, count: String(n) } : n;
  }
  if (change.requiredAllApprovers !== undefined) body.requiredAllApprovers = change.requiredAllApprovers;
  if (change.requiredAllTasksComplete !== undefined)
    body.requiredAllTasksComplete = change.requiredAllTasksComplete;
  if (change.defaultStrategy !== undefined || change.strategies !== undefined) {
    const def = change.defaultStrategy ?? current.mergeStrategy.default;
    const enabled = change.strategies ?? [...new Set([...current.mergeStrategy.enabled, def])];
    body.mergeConfig = { defaultStrategy: { id: def }, strategies: enabled.map((id) => ({ id })) };
  }
  return body;
}

/**
 * Posts a change. Required approvers go first in the object form the 9.4 document describes; servers that
 * answer that with 400 get the older integer form (docs/decisions.md). Returns the form that worked.
 */
export async function postPrSettings(
  client: BitbucketClient,
  path: string,
  change: PrSettingsChange,
  current: PrSettings,
  logger: Logger,
): Promise<{ settings: RestPrSettings; form?: 'object' | 'integer' }> {
  const send = async (form: 'object' | 'integer') =>
    (await client.request<RestPrSettings>('POST', path, { body: prSettingsBody(change, current, form) }))
      .data;
  if (change.requiredApprovers === undefined) return { settings: await send('object') };
  try {
    return { settings: await send('object'), form: 'object' };
  } catch (error) {
    if (statusOf(error) !== 400) throw error;
    logger.log('info', 'the server rejected requiredApprovers as an object; retrying with the integer form', {
      path,
    });
    return { settings: await send('integer'), form: 'integer' };
  }
}
