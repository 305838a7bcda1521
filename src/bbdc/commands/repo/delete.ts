import type { DeletionOutput } from '../../../../generated/types/cli/output/deletion.ts';
import { identify } from '../../api/identity.ts';
import { getIfExists } from '../../api/optional.ts';
import { ifExists } from '../../api/permission-check.ts';
import { type RestRepository, repoPath } from '../../api/repositories.ts';
import { confirmByName } from '../../cli/confirm.ts';
import { repoFromArg } from '../../cli/repo-arg.ts';
import { defineCommand } from '../../command.ts';
import { httpPlan } from '../../output/http-plan.ts';
import { repoArg } from './get.ts';

type Options = { repo?: string; yes: boolean };

/** `bbdc repo delete [repository] --yes`: deletes a repository. */
export const command = defineCommand<Options, DeletionOutput>({
  name: 'repo delete',
  summary: 'Delete a repository',
  description:
    'Deleting a repository cannot be undone. Asks for PROJECT/slug on a terminal unless --yes is given.',
  args: [{ ...repoArg, required: true }],
  flags: { yes: { type: 'boolean', shortFlag: 'y', description: 'Do not ask for confirmation' } },
  outputSchema: 'deletion',
  effect: 'mutating',
  needs: {
    permission: 'REPO_ADMIN',
    action: 'deleting a repository',
    target: async (o, deps) => {
      const repo = await repoFromArg(o.repo, deps);
      return ifExists(await deps.client(repo.host), repoPath(repo.project, repo.slug), repo);
    },
  },
  examples: ['bbdc repo delete PROJ/old-service --yes', 'bbdc repo delete PROJ/old-service --dry-run'],
  parse: ({ args, flags }) => ({ repo: args[0], yes: flags.yes === true }),
  async plan(o, deps) {
    const repo = await repoFromArg(o.repo, deps);
    const client = await deps.client(repo.host);
    const { username } = await identify(client, repo.host.url);
    const path = repoPath(repo.project, repo.slug);
    const current = await getIfExists<RestRepository>(client, path);
    return httpPlan({
      intent: `bbdc repo delete ${repo.project}/${repo.slug}`,
      host: repo.host.url,
      target: { type: 'repository', id: `${repo.project}/${repo.slug}` },
      request: { method: 'DELETE', path },
      description: `delete repository ${repo.project}/${repo.slug}`,
      predicted: 'delete',
      reasons: [`authenticated as ${username}`, 'deleting a repository cannot be undone'],
      blocking: current ? [] : [`repository ${repo.project}/${repo.slug} does not exist`],
    });
  },
  async run(o, deps) {
    const repo = await repoFromArg(o.repo, deps);
    const id = `${repo.project}/${repo.slug}`;
    await confirmByName(deps, 'repository', id, o.yes);
    const client = await deps.client(repo.host);
    await client.request('DELETE', repoPath(repo.project, repo.slug));
    return { type: 'repository', id, deleted: true };
  },
  human(d, ui) {
    ui.line(`Deleted repository ${d.id}.`);
  },
});
