import type { RepoSettingsReviewerGroupsDeleteOutput } from '../../../../../generated/types/cli/output/repo-settings-reviewer-groups-delete.ts';
import { identify } from '../../../api/identity.ts';
import { type Id, parseId } from '../../../api/ids.ts';
import { collectPages } from '../../../api/paging.ts';
import { scopedNeeds } from '../../../api/permission-check.ts';
import { type RestReviewerGroup, reviewerGroupsPath } from '../../../api/reviewers.ts';
import { defineCommand } from '../../../command.ts';
import { makePlan } from '../../../output/plan.ts';

/** `bbdc repo settings reviewer-groups delete <id>`. */
export const command = defineCommand<{ id: Id }, RepoSettingsReviewerGroupsDeleteOutput>({
  name: 'repo settings reviewer-groups delete',
  summary: 'Delete a reviewer group of a repository',
  args: [
    { name: 'id', required: true, description: 'Group id (see `bbdc repo settings reviewer-groups list`)' },
  ],
  flags: {},
  outputSchema: 'repo-settings-reviewer-groups-delete',
  effect: 'mutating',
  needs: scopedNeeds('REPO_ADMIN', 'changing reviewer groups'),
  examples: ['bbdc repo settings reviewer-groups delete 4 -R PROJ/api --dry-run'],
  parse: ({ args }) => {
    return { id: parseId('group id', args[0], 'int64', 'see `bbdc repo settings reviewer-groups list`') };
  },
  async plan(o, deps) {
    const repo = await deps.repo();
    const client = await deps.client(repo.host);
    const { username } = await identify(client, repo.host.url);
    const { values } = await collectPages<RestReviewerGroup>(
      client,
      reviewerGroupsPath(repo.project, repo.slug),
      {},
      undefined,
    );
    const found = values.find((g) => g.id === o.id);
    return makePlan({
      intent: `bbdc repo settings reviewer-groups delete ${o.id}`,
      target: { type: 'reviewer-group', id: `${repo.project}/${repo.slug}:${o.id}`, host: repo.host.url },
      action: {
        type: 'http',
        description: `delete reviewer group ${found?.name ?? o.id} of ${repo.project}/${repo.slug}`,
        method: 'DELETE',
        path: reviewerGroupsPath(repo.project, repo.slug, o.id),
      },
      predictedAction: found ? 'delete' : 'conflict',
      reasons: [`authenticated as ${username}`],
      blockingReasons: found ? [] : [`reviewer group ${o.id} does not exist in ${repo.project}/${repo.slug}`],
    });
  },
  async run(o, deps) {
    const repo = await deps.repo();
    const client = await deps.client(repo.host);
    await client.request('DELETE', reviewerGroupsPath(repo.project, repo.slug, o.id));
    return { repository: `${repo.project}/${repo.slug}`, id: o.id, deleted: true };
  },
  human(d, ui) {
    ui.line(`Deleted reviewer group ${d.id} of ${d.repository}.`);
  },
});
