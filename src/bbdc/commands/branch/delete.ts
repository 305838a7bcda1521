import type { DeletionOutput } from '../../../../generated/types/cli/output/deletion.ts';
import { identify } from '../../api/identity.ts';
import { pluginRepoPath } from '../../api/path.ts';
import { defaultBranch, findBranch } from '../../api/refs.ts';
import { defineCommand } from '../../command.ts';
import { httpPlan } from '../../output/http-plan.ts';

type Options = { name: string };

const branchUtilsPath = (project: string, slug: string) =>
  `${pluginRepoPath('branch-utils', project, slug)}/branches`;

/** `bbdc branch delete <name>`: deletes a branch (never the default branch). */
export const command = defineCommand<Options, DeletionOutput>({
  name: 'branch delete',
  summary: 'Delete a branch',
  args: [{ name: 'name', required: true, description: 'Branch to delete' }],
  flags: {},
  outputSchema: 'deletion',
  effect: 'mutating',
  needs: { permission: 'REPO_WRITE', action: 'deleting a branch' },
  examples: ['bbdc branch delete feature/old -R PROJ/api', 'bbdc branch delete feature/old --dry-run'],
  parse: ({ args }) => ({ name: args[0].replace(/^refs\/heads\//, '') }),
  async plan(o, deps) {
    const repo = await deps.repo();
    const client = await deps.client(repo.host);
    const { username } = await identify(client, repo.host.url);
    const branch = await findBranch(client, repo, o.name);
    const def = await defaultBranch(client, repo);
    const blocking = !branch
      ? [`branch ${o.name} does not exist in ${repo.project}/${repo.slug}`]
      : def?.displayId === o.name
        ? [`${o.name} is the default branch; choose another with \`bbdc branch default set\` first`]
        : [];
    return httpPlan({
      intent: `bbdc branch delete ${o.name}`,
      host: repo.host.url,
      target: { type: 'branch', id: `${repo.project}/${repo.slug}:${o.name}` },
      request: {
        method: 'DELETE',
        path: branchUtilsPath(repo.project, repo.slug),
        body: { name: `refs/heads/${o.name}`, dryRun: false },
      },
      description: `delete branch ${o.name}`,
      predicted: 'delete',
      reasons: [
        `authenticated as ${username}`,
        ...(branch ? [`${o.name} is at ${branch.latestCommit}`] : []),
      ],
      blocking,
    });
  },
  async run(o, deps) {
    const repo = await deps.repo();
    const client = await deps.client(repo.host);
    await client.request('DELETE', branchUtilsPath(repo.project, repo.slug), {
      body: { name: `refs/heads/${o.name}`, dryRun: false },
    });
    return { type: 'branch', id: `${repo.project}/${repo.slug}:${o.name}`, deleted: true };
  },
  human(d, ui) {
    ui.line(`Deleted branch ${d.id.split(':').slice(1).join(':')}.`);
  },
});
