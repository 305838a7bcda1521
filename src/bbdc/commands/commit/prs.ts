import type { PrListOutput } from '../../../../generated/types/cli/output/pr-list.ts';
import { collectPages } from '../../api/paging.ts';
import { segment } from '../../api/path.ts';
import { type RestPullRequest, toPullRequest } from '../../api/pull-requests.ts';
import { repoPath } from '../../api/repositories.ts';
import { positiveInt } from '../../cli/paging-flags.ts';
import { defineCommand } from '../../command.ts';
import { command as prList } from '../pr/list.ts';

type Options = { commit: string; limit: number };

/** `bbdc commit prs <commit>`: the pull requests that contain a commit (which PR brought it in). */
export const command = defineCommand<Options, PrListOutput>({
  name: 'commit prs',
  summary: 'List the pull requests that contain a commit',
  args: [{ name: 'commit', required: true, description: 'Commit id (full or abbreviated)' }],
  flags: {
    limit: {
      type: 'string',
      shortFlag: 'L',
      value: 'N',
      description: 'Maximum number in total (default 30)',
    },
  },
  outputSchema: 'pr-list',
  effect: 'safe',
  examples: ['bbdc commit prs 1a2b3c4d -R PROJ/api'],
  parse: ({ args, flags }) => ({ commit: args[0], limit: positiveInt(flags.limit, '--limit', 30) }),
  async run(o, deps) {
    const repo = await deps.repo();
    const client = await deps.client(repo.host);
    const path = `${repoPath(repo.project, repo.slug)}/commits/${segment('commit', o.commit)}/pull-requests`;
    const { values, truncated } = await collectPages<RestPullRequest>(client, path, {}, o.limit);
    const prs = values.map((pr) => toPullRequest(pr, repo));
    return { pullRequests: prs, count: prs.length, truncated };
  },
  human: prList.human,
});
