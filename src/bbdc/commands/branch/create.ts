import type { BranchOutput } from '../../../../generated/types/cli/output/branch.ts';
import { identify } from '../../api/identity.ts';
import {
  findBranch,
  missingStartPoint,
  newRefBody,
  newRefName,
  type RestRef,
  startPointOrDefault,
  toBranch,
} from '../../api/refs.ts';
import { repoPath } from '../../api/repositories.ts';
import { defineCommand } from '../../command.ts';
import { httpPlan } from '../../output/http-plan.ts';

type Options = { name: string; from?: string; message?: string };

/** `bbdc branch create <name> [--from REF]`: creates a branch from a branch, tag ref or commit id. */
export const command = defineCommand<Options, BranchOutput>({
  name: 'branch create',
  summary: 'Create a branch from a branch or a commit',
  description:
    'FROM is a branch name, a full ref (refs/tags/v1.0) or a commit id (7 to 40 hex digits), which is sent as is. Without --from, the default branch.',
  args: [{ name: 'name', required: true, description: 'Name of the new branch' }],
  flags: {
    from: { type: 'string', value: 'REF', description: 'Branch, refs/tags/<tag> or commit id to start from' },
    message: {
      type: 'string',
      shortFlag: 'm',
      value: 'TEXT',
      description: 'Message for the branch creation',
    },
  },
  outputSchema: 'branch',
  effect: 'mutating',
  needs: { permission: 'REPO_WRITE', action: 'creating a branch' },
  examples: ['bbdc branch create feature/login --from main', 'bbdc branch create hotfix --from 1a2b3c4d5e6f'],
  parse: ({ args, flags }) => {
    return {
      name: newRefName(args[0], 'branch'),
      from: flags.from as string | undefined,
      message: flags.message as string | undefined,
    };
  },
  async plan(o, deps) {
    const repo = await deps.repo();
    const client = await deps.client(repo.host);
    const { username } = await identify(client, repo.host.url);
    const from = await startPointOrDefault(client, repo, o.from);
    const existing = await findBranch(client, repo, o.name);
    const missing = await missingStartPoint(client, repo, from);
    const blocking = [
      ...(existing ? [`branch ${o.name} already exists at ${existing.latestCommit?.slice(0, 11)}`] : []),
      ...(missing ? [missing] : []),
    ];
    return httpPlan({
      intent: `bbdc branch create ${o.name} --from ${from}`,
      host: repo.host.url,
      target: { type: 'branch', id: `${repo.project}/${repo.slug}:${o.name}` },
      request: {
        method: 'POST',
        path: `${repoPath(repo.project, repo.slug)}/branches`,
        body: newRefBody(o, from),
      },
      description: `create branch ${o.name} from ${from}`,
      predicted: 'create',
      reasons: [`authenticated as ${username}`],
      blocking,
    });
  },
  async run(o, deps) {
    const repo = await deps.repo();
    const client = await deps.client(repo.host);
    const from = await startPointOrDefault(client, repo, o.from);
    const res = await client.request<RestRef>('POST', `${repoPath(repo.project, repo.slug)}/branches`, {
      body: newRefBody(o, from),
    });
    return toBranch(res.data);
  },
  human(d, ui) {
    ui.line(`Created branch ${d.name} at ${d.latestCommit.slice(0, 11)}.`);
  },
});
