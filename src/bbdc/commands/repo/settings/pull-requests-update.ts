import { isDeepStrictEqual } from 'node:util';
import type { RepoSettingsPullRequestsUpdateOutput } from '../../../../../generated/types/cli/output/repo-settings-pull-requests-update.ts';
import { UsageError } from '../../../../core/errors.ts';
import { identify } from '../../../api/identity.ts';
import { scopedNeeds } from '../../../api/permission-check.ts';
import {
  mergeStrategies,
  type PrSettingsChange,
  postPrSettings,
  prSettingsBody,
  type RestPrSettings,
  toPrSettings,
} from '../../../api/pull-request-settings.ts';
import { defineCommand, type FlagSpec } from '../../../command.ts';
import { makePlan } from '../../../output/plan.ts';
import { printPrSettings, prSettingsPath } from './pull-requests-get.ts';

const bool = (description: string): FlagSpec => ({
  type: 'string',
  value: 'true|false',
  choices: ['true', 'false'],
  description,
});

function parseChange(flags: Record<string, unknown>): PrSettingsChange {
  const change: PrSettingsChange = {};
  if (flags.requiredApprovers !== undefined) {
    const text = String(flags.requiredApprovers);
    if (!/^\d+$/.test(text))
      throw new UsageError(`--required-approvers "${text}" must be a whole number (0 turns the check off)`);
    change.requiredApprovers = Number(text);
  }
  if (flags.allApprovers !== undefined) change.requiredAllApprovers = flags.allApprovers === 'true';
  if (flags.allTasksComplete !== undefined)
    change.requiredAllTasksComplete = flags.allTasksComplete === 'true';
  if (flags.mergeStrategy !== undefined) change.defaultStrategy = String(flags.mergeStrategy);
  if (flags.mergeStrategies !== undefined) {
    const ids = String(flags.mergeStrategies)
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const unknown = ids.filter((id) => !mergeStrategies.includes(id));
    if (unknown.length || ids.length === 0)
      throw new UsageError(
        `--merge-strategies "${flags.mergeStrategies}" must list strategies from ${mergeStrategies.join(', ')}`,
      );
    change.strategies = [...new Set(ids)];
    if (change.defaultStrategy && !change.strategies.includes(change.defaultStrategy))
      throw new UsageError(
        `--merge-strategy ${change.defaultStrategy} must be one of --merge-strategies ${change.strategies.join(',')}`,
      );
  }
  if (Object.keys(change).length === 0)
    throw new UsageError(
      'nothing to change: pass --required-approvers, --all-approvers, --all-tasks-complete, --merge-strategy or --merge-strategies',
    );
  return change;
}

/** `bbdc repo settings pull-requests update`: merge checks and strategies, with the required-approvers fallback. */
export const command = defineCommand<PrSettingsChange, RepoSettingsPullRequestsUpdateOutput>({
  name: 'repo settings pull-requests update',
  summary: 'Change the pull request settings of a repository',
  description:
    'Only the settings given change. Required approvers are sent as {"enabled","count"} as the API document describes; servers that reject that with 400 get the older integer form instead. Needs REPO_ADMIN.',
  args: [],
  flags: {
    requiredApprovers: {
      type: 'string',
      value: 'N',
      description: 'Approvals a pull request needs to merge (0: off)',
    },
    allApprovers: bool('Every reviewer must approve'),
    allTasksComplete: bool('Every task must be resolved'),
    mergeStrategy: {
      type: 'string',
      value: 'ID',
      choices: mergeStrategies,
      description: `Default merge strategy: ${mergeStrategies.join(', ')}`,
    },
    mergeStrategies: {
      type: 'string',
      value: 'IDS',
      description: 'Enabled merge strategies, comma-separated',
    },
  },
  outputSchema: 'repo-settings-pull-requests-update',
  effect: 'mutating',
  needs: scopedNeeds('REPO_ADMIN', 'changing pull request settings'),
  examples: [
    'bbdc repo settings pull-requests update --required-approvers 2 -R PROJ/api',
    'bbdc repo settings pull-requests update --merge-strategy squash --merge-strategies squash,no-ff',
  ],
  parse: ({ flags }) => parseChange(flags),
  async plan(o, deps) {
    const repo = await deps.repo();
    const client = await deps.client(repo.host);
    const { username } = await identify(client, repo.host.url);
    const path = prSettingsPath(repo.project, repo.slug);
    const current = toPrSettings(await client.get<RestPrSettings>(path), `${repo.project}/${repo.slug}`);
    const body = prSettingsBody(o, current, 'object');
    const wanted = {
      requiredApprovers: o.requiredApprovers ?? current.requiredApprovers,
      requiredAllApprovers: o.requiredAllApprovers ?? current.requiredAllApprovers,
      requiredAllTasksComplete: o.requiredAllTasksComplete ?? current.requiredAllTasksComplete,
      default: o.defaultStrategy ?? current.mergeStrategy.default,
      enabled: [
        ...((body.mergeConfig as { strategies?: { id: string }[] })?.strategies?.map((s) => s.id) ??
          current.mergeStrategy.enabled),
      ].sort(),
    };
    const now = {
      requiredApprovers: current.requiredApprovers,
      requiredAllApprovers: current.requiredAllApprovers,
      requiredAllTasksComplete: current.requiredAllTasksComplete,
      default: current.mergeStrategy.default,
      enabled: [...current.mergeStrategy.enabled].sort(),
    };
    const changed = (Object.keys(now) as (keyof typeof now)[]).filter(
      (k) => !isDeepStrictEqual(now[k], wanted[k]),
    );
    return makePlan({
      intent: 'bbdc repo settings pull-requests update',
      target: { type: 'pull-request-settings', id: `${repo.project}/${repo.slug}`, host: repo.host.url },
      action: {
        type: 'http',
        description: `update the pull request settings of ${repo.project}/${repo.slug}`,
        method: 'POST',
        path,
        body,
      },
      predictedAction: changed.length ? 'update' : 'no-op',
      reasons: [
        `authenticated as ${username}`,
        ...changed.map((k) => `${k}: ${JSON.stringify(now[k])} -> ${JSON.stringify(wanted[k])}`),
        ...(o.requiredApprovers !== undefined
          ? [
              `if the server rejects the object form with 400, requiredApprovers is resent as ${o.requiredApprovers}`,
            ]
          : []),
      ],
      blockingReasons: [],
    });
  },
  async run(o, deps) {
    const repo = await deps.repo();
    const client = await deps.client(repo.host);
    const path = prSettingsPath(repo.project, repo.slug);
    const id = `${repo.project}/${repo.slug}`;
    const current = toPrSettings(await client.get<RestPrSettings>(path), id);
    const { settings, form } = await postPrSettings(client, path, o, current, deps.logger);
    return { ...toPrSettings(settings, id), ...(form && { requiredApproversForm: form }) };
  },
  human(d, ui) {
    ui.line(`Updated the pull request settings of ${d.repository}.`);
    printPrSettings(d, ui);
  },
});
