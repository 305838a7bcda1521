import type { RepoSettingsDefaultReviewersListOutput } from '../../../../../generated/types/cli/output/repo-settings-default-reviewers-list.ts';
import { conditionsPath, type RestCondition, toDefaultReviewers } from '../../../api/reviewers.ts';
import { defineCommand } from '../../../command.ts';
import type { Ui } from '../../../output/ui.ts';

/** Prints default-reviewer conditions as a table. */
export function printConditions(
  conditions: RepoSettingsDefaultReviewersListOutput['conditions'],
  ui: Ui,
): void {
  ui.table(
    ['id', 'source', 'target', 'reviewers', 'approvals'],
    conditions.map((c) => [
      String(c.id),
      c.source,
      c.target,
      c.reviewers.join(','),
      String(c.requiredApprovals),
    ]),
  );
}

/** `bbdc repo settings default-reviewers list`: who is added to new pull requests, by source and target branch. */
export const command = defineCommand<Record<string, never>, RepoSettingsDefaultReviewersListOutput>({
  name: 'repo settings default-reviewers list',
  summary: 'List the default-reviewer conditions of a repository',
  description:
    'Each condition adds its reviewers to new pull requests from the source branches into the target branches.',
  args: [],
  flags: {},
  outputSchema: 'repo-settings-default-reviewers-list',
  effect: 'safe',
  examples: ['bbdc repo settings default-reviewers list -R PROJ/api'],
  parse: () => ({}),
  async run(_o, deps) {
    const repo = await deps.repo();
    const client = await deps.client(repo.host);
    const conditions = (await client.get<RestCondition[]>(conditionsPath(repo.project, repo.slug))).map(
      toDefaultReviewers,
    );
    return { repository: `${repo.project}/${repo.slug}`, conditions, count: conditions.length };
  },
  human(d, ui) {
    if (d.conditions.length === 0) ui.notice(`No default reviewers in ${d.repository}.`);
    else printConditions(d.conditions, ui);
  },
});
