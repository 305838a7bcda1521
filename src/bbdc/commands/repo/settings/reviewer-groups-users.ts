import type { RepoSettingsReviewerGroupsCreateOutput } from '../../../../../generated/types/cli/output/repo-settings-reviewer-groups-create.ts';
import { UsageError } from '../../../../core/errors.ts';
import type { RestUser } from '../../../api/identity.ts';
import { collectPages } from '../../../api/paging.ts';
import { type RestReviewerGroup, reviewerGroupsPath, toReviewerGroup } from '../../../api/reviewers.ts';
import { defineCommand } from '../../../command.ts';

/** The `<id>` argument of the reviewer-group commands. */
export function groupId(value: string | undefined): number {
  if (!/^\d+$/.test(String(value ?? '')))
    throw new UsageError(
      `reviewer group id "${value}" must be a number (see bbdc repo settings reviewer-groups list)`,
    );
  return Number(value);
}

/** `bbdc repo settings reviewer-groups users <id>`: the members of a reviewer group (bb: reviewer-group users). */
export const command = defineCommand<{ id: number }, RepoSettingsReviewerGroupsCreateOutput>({
  name: 'repo settings reviewer-groups users',
  summary: 'List the members of a reviewer group',
  args: [{ name: 'id', required: true, description: 'Reviewer group id' }],
  flags: {},
  outputSchema: 'repo-settings-reviewer-groups-create',
  effect: 'safe',
  examples: ['bbdc repo settings reviewer-groups users 3 -R PROJ/api'],
  parse: ({ args }) => ({ id: groupId(args[0]) }),
  async run(o, deps) {
    const repo = await deps.repo();
    const client = await deps.client(repo.host);
    const group = await client.get<RestReviewerGroup>(reviewerGroupsPath(repo.project, repo.slug, o.id));
    const { values } = await collectPages<RestUser>(
      client,
      `${reviewerGroupsPath(repo.project, repo.slug, o.id)}/users`,
      {},
      undefined,
    );
    return {
      repository: `${repo.project}/${repo.slug}`,
      group: toReviewerGroup({ ...group, users: values }),
    };
  },
  human(d, ui) {
    for (const u of d.group.users) ui.line(u);
  },
});
