import type { BuildRequiredDeleteOutput } from '../../../../generated/types/cli/output/build-required-delete.ts';
import { type RestRequiredBuilds, requiredBuildsPath } from '../../api/builds.ts';
import { identify } from '../../api/identity.ts';
import { type Id, parseId } from '../../api/ids.ts';
import { collectPages } from '../../api/paging.ts';
import { scopedNeeds } from '../../api/permission-check.ts';
import { defineCommand } from '../../command.ts';
import { makePlan } from '../../output/plan.ts';
import { toRequiredBuilds } from './required.ts';

/** `bbdc build required delete <id>`: removes a required-builds merge check (deleting a missing one is a no-op). */
export const command = defineCommand<{ id: Id }, BuildRequiredDeleteOutput>({
  name: 'build required delete',
  summary: 'Delete a required-builds merge check',
  args: [{ name: 'id', required: true, description: 'Check id (see `bbdc build required list`)' }],
  flags: {},
  outputSchema: 'build-required-delete',
  effect: 'mutating',
  needs: scopedNeeds('REPO_ADMIN', 'changing required builds'),
  examples: ['bbdc build required delete 3 -R PROJ/api --dry-run'],
  parse: ({ args }) => {
    return { id: parseId('check id', args[0], 'int64', 'run `bbdc build required list`') };
  },
  async plan(o, deps) {
    const repo = await deps.repo();
    const client = await deps.client(repo.host);
    const { username } = await identify(client, repo.host.url);
    const { values } = await collectPages<RestRequiredBuilds>(
      client,
      requiredBuildsPath(repo.project, repo.slug),
      {},
      undefined,
    );
    const found = values.find((c) => c.id === o.id);
    const shown = found && toRequiredBuilds(found);
    return makePlan({
      intent: `bbdc build required delete ${o.id}`,
      target: { type: 'required-builds', id: `${repo.project}/${repo.slug}:${o.id}`, host: repo.host.url },
      action: {
        type: 'http',
        description: `delete required-builds check ${o.id} of ${repo.project}/${repo.slug}`,
        method: 'DELETE',
        path: requiredBuildsPath(repo.project, repo.slug, o.id),
      },
      predictedAction: found ? 'delete' : 'no-op',
      reasons: [
        `authenticated as ${username}`,
        shown
          ? `check ${o.id} requires ${shown.buildKeys.join(', ')} on ${shown.branches}`
          : `check ${o.id} does not exist in ${repo.project}/${repo.slug}`,
      ],
      blockingReasons: [],
    });
  },
  async run(o, deps) {
    const repo = await deps.repo();
    const client = await deps.client(repo.host);
    await client.request('DELETE', requiredBuildsPath(repo.project, repo.slug, o.id));
    return { repository: `${repo.project}/${repo.slug}`, id: o.id, deleted: true };
  },
  human(d, ui) {
    ui.line(`Deleted required-builds check ${d.id} of ${d.repository}.`);
  },
});
