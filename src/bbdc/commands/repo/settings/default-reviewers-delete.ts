import type { RepoSettingsDefaultReviewersDeleteOutput } from '../../../../../generated/types/cli/output/repo-settings-default-reviewers-delete.ts';
import { identify } from '../../../api/identity.ts';
import { parseId } from '../../../api/ids.ts';
import { scopedNeeds } from '../../../api/permission-check.ts';
import { conditionsPath, type RestCondition, toDefaultReviewers } from '../../../api/reviewers.ts';
import { defineCommand } from '../../../command.ts';
import { makePlan } from '../../../output/plan.ts';

/** `bbdc repo settings default-reviewers delete <id>`. */
export const command = defineCommand<{ id: number }, RepoSettingsDefaultReviewersDeleteOutput>({
  name: 'repo settings default-reviewers delete',
  summary: 'Delete a default-reviewer condition of a repository',
  args: [
    {
      name: 'id',
      required: true,
      description: 'Condition id (see `bbdc repo settings default-reviewers list`)',
    },
  ],
  flags: {},
  outputSchema: 'repo-settings-default-reviewers-delete',
  effect: 'mutating',
  needs: scopedNeeds('REPO_ADMIN', 'changing default reviewers'),
  examples: ['bbdc repo settings default-reviewers delete 2 -R PROJ/api --dry-run'],
  parse: ({ args }) => {
    return {
      id: parseId('condition id', args[0], 'int32', 'see `bbdc repo settings default-reviewers list`'),
    };
  },
  async plan(o, deps) {
    const repo = await deps.repo();
    const client = await deps.client(repo.host);
    const { username } = await identify(client, repo.host.url);
    const found = (await client.get<RestCondition[]>(conditionsPath(repo.project, repo.slug))).find(
      (c) => c.id === o.id,
    );
    const shown = found && toDefaultReviewers(found);
    return makePlan({
      intent: `bbdc repo settings default-reviewers delete ${o.id}`,
      target: { type: 'default-reviewers', id: `${repo.project}/${repo.slug}:${o.id}`, host: repo.host.url },
      action: {
        type: 'http',
        description: `delete default-reviewer condition ${o.id} of ${repo.project}/${repo.slug}`,
        method: 'DELETE',
        path: conditionsPath(repo.project, repo.slug, o.id),
      },
      predictedAction: found ? 'delete' : 'conflict',
      reasons: [
        `authenticated as ${username}`,
        ...(shown
          ? [`condition ${o.id} adds ${shown.reviewers.join(', ')} from ${shown.source} to ${shown.target}`]
          : []),
      ],
      blockingReasons: found ? [] : [`condition ${o.id} does not exist in ${repo.project}/${repo.slug}`],
    });
  },
  async run(o, deps) {
    const repo = await deps.repo();
    const client = await deps.client(repo.host);
    await client.request('DELETE', conditionsPath(repo.project, repo.slug, o.id));
    return { repository: `${repo.project}/${repo.slug}`, id: o.id, deleted: true };
  },
  human(d, ui) {
    ui.line(`Deleted default-reviewer condition ${d.id} of ${d.repository}.`);
  },
});
