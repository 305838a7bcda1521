import type { RepoSettingsPullRequestsGetOutput } from '../../../../../generated/types/cli/output/repo-settings-pull-requests-get.ts';
import { type RestPrSettings, toPrSettings } from '../../../api/pull-request-settings.ts';
import { repoPath } from '../../../api/repositories.ts';
import { defineCommand } from '../../../command.ts';
import type { Ui } from '../../../output/ui.ts';

/** The REST path of a repository's pull request settings. */
export const prSettingsPath = (project: string, slug: string) =>
  `${repoPath(project, slug)}/settings/pull-requests`;

/** Prints pull request settings as a two-column table. */
export function printPrSettings(d: RepoSettingsPullRequestsGetOutput, ui: Ui): void {
  const off = (n: number) => (n > 0 ? String(n) : 'off');
  ui.table(
    ['setting', 'value'],
    [
      ['default merge strategy', `${d.mergeStrategy.default} (${d.mergeStrategy.source})`],
      ['enabled merge strategies', d.mergeStrategy.enabled.join(', ')],
      ['required approvers', off(d.requiredApprovers)],
      ['all reviewers must approve', d.requiredAllApprovers ? 'yes' : 'no'],
      ['all tasks must be resolved', d.requiredAllTasksComplete ? 'yes' : 'no'],
      ['required successful builds', off(d.requiredSuccessfulBuilds)],
    ],
  );
}

/** `bbdc repo settings pull-requests get`: merge strategies and merge checks of the repository. */
export const command = defineCommand<Record<string, never>, RepoSettingsPullRequestsGetOutput>({
  name: 'repo settings pull-requests get',
  summary: 'Show the pull request settings of a repository',
  description: 'Merge strategies and the built-in merge checks; a count of 0 means the check is off.',
  args: [],
  flags: {},
  outputSchema: 'repo-settings-pull-requests-get',
  effect: 'safe',
  examples: ['bbdc repo settings pull-requests get -R PROJ/api'],
  parse: () => ({}),
  async run(_o, deps) {
    const repo = await deps.repo();
    const client = await deps.client(repo.host);
    const raw = await client.get<RestPrSettings>(prSettingsPath(repo.project, repo.slug));
    return toPrSettings(raw, `${repo.project}/${repo.slug}`);
  },
  human: printPrSettings,
});
