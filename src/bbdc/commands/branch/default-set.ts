import type { BranchDefaultSetOutput } from '../../../../generated/types/cli/output/branch-default-set.ts';
import { identify } from '../../api/identity.ts';
import { scopedNeeds } from '../../api/permission-check.ts';
import { defaultBranch, findBranch } from '../../api/refs.ts';
import { repoPath } from '../../api/repositories.ts';
import { defineCommand } from '../../command.ts';
import { httpPlan } from '../../output/http-plan.ts';

type Options = { name: string };

/** `bbdc branch default set <name>`: makes an existing branch the default. */
export const command = defineCommand<Options, BranchDefaultSetOutput>({
  name: 'branch default set',
  summary: 'Make a branch the default branch',
  args: [{ name: 'name', required: true, description: 'An existing branch' }],
  flags: {},
  outputSchema: 'branch-default-set',
  effect: 'mutating',
  needs: scopedNeeds('REPO_ADMIN', 'setting the default branch'),
  examples: ['bbdc branch default set main -R PROJ/api'],
  parse: ({ args }) => ({ name: args[0].replace(/^refs\/heads\//, '') }),
  async plan(o, deps) {
    const repo = await deps.repo();
    const client = await deps.client(repo.host);
    const { username } = await identify(client, repo.host.url);
    const current = await defaultBranch(client, repo);
    const branch = await findBranch(client, repo, o.name);
    return httpPlan({
      intent: `bbdc branch default set ${o.name}`,
      host: repo.host.url,
      target: { type: 'repository', id: `${repo.project}/${repo.slug}` },
      request: {
        method: 'PUT',
        path: `${repoPath(repo.project, repo.slug)}/default-branch`,
        body: { id: `refs/heads/${o.name}` },
      },
      description: `make ${o.name} the default branch`,
      predicted: current?.displayId === o.name ? 'no-op' : 'update',
      reasons: [`authenticated as ${username}`, `the default branch is ${current?.displayId ?? 'not set'}`],
      blocking: branch ? [] : [`branch ${o.name} does not exist in ${repo.project}/${repo.slug}`],
    });
  },
  async run(o, deps) {
    const repo = await deps.repo();
    const client = await deps.client(repo.host);
    const previous = await defaultBranch(client, repo);
    await client.request('PUT', `${repoPath(repo.project, repo.slug)}/default-branch`, {
      body: { id: `refs/heads/${o.name}` },
    });
    return {
      repository: `${repo.project}/${repo.slug}`,
      branch: o.name,
      previous: previous?.displayId ?? '',
    };
  },
  human(d, ui) {
    ui.line(
      `The default branch of ${d.repository} is now ${d.branch}${d.previous ? ` (was ${d.previous})` : ''}.`,
    );
  },
});
