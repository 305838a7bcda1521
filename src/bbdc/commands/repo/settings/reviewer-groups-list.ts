import type { RepoSettingsReviewerGroupsListOutput } from '../../../../../generated/types/cli/output/repo-settings-reviewer-groups-list.ts';
import { collectPages } from '../../../api/paging.ts';
import { type RestReviewerGroup, reviewerGroupsPath, toReviewerGroup } from '../../../api/reviewers.ts';
import { limitFlag } from '../../../cli/paging-flags.ts';
import { defineCommand } from '../../../command.ts';
import type { Ui } from '../../../output/ui.ts';
import { positiveInt } from '../list.ts';

/** Prints reviewer groups as a table. */
export function printGroups(groups: RepoSettingsReviewerGroupsListOutput['groups'], ui: Ui): void {
  ui.table(
    ['id', 'name', 'users', 'description'],
    groups.map((g) => [String(g.id), g.name, g.users.join(','), g.description ?? '']),
  );
}

/** `bbdc repo settings reviewer-groups list`: groups that can be added as reviewers in one go. */
export const command = defineCommand<{ limit: number }, RepoSettingsReviewerGroupsListOutput>({
  name: 'repo settings reviewer-groups list',
  summary: 'List the reviewer groups of a repository',
  description: 'Includes the groups the repository inherits from its project.',
  args: [],
  flags: {
    limit: limitFlag('groups', 100),
  },
  outputSchema: 'repo-settings-reviewer-groups-list',
  effect: 'safe',
  examples: ['bbdc repo settings reviewer-groups list -R PROJ/api'],
  parse: ({ flags }) => ({ limit: positiveInt(flags.limit, '--limit', 100) }),
  async run(o, deps) {
    const repo = await deps.repo();
    const client = await deps.client(repo.host);
    const { values, truncated } = await collectPages<RestReviewerGroup>(
      client,
      reviewerGroupsPath(repo.project, repo.slug),
      {},
      o.limit,
    );
    const groups = values.map(toReviewerGroup);
    return { repository: `${repo.project}/${repo.slug}`, groups, count: groups.length, truncated };
  },
  human(d, ui) {
    if (d.groups.length === 0) ui.notice(`No reviewer groups in ${d.repository}.`);
    else printGroups(d.groups, ui);
  },
});
