import type { CommitListOutput } from '../../../../../generated/types/cli/output/commit-list.ts';
import { type RestCommit, toCommit } from '../../../api/commits.ts';
import { collectPages } from '../../../api/paging.ts';
import { repoPath } from '../../../api/repositories.ts';
import { limitFlag, positiveInt } from '../../../cli/paging-flags.ts';
import { defineCommand } from '../../../command.ts';
import { command as commitList } from '../../commit/list.ts';

type Options = { path: string; ref?: string; limit: number };

/** `bbdc repo browse history <path>`: the commits that changed a file or directory, newest first. */
export const command = defineCommand<Options, CommitListOutput>({
  name: 'repo browse history',
  summary: 'List the commits that changed a file or directory, newest first',
  args: [{ name: 'path', required: true, description: 'File or directory path in the repository' }],
  flags: {
    ref: {
      type: 'string',
      value: 'REF',
      description: 'Start from this branch, tag or commit (default: the default branch)',
    },
    limit: limitFlag('commits in total', 50),
  },
  outputSchema: 'commit-list',
  effect: 'safe',
  examples: ['bbdc repo browse history src/main.ts --limit 10'],
  parse: ({ args, flags }) => ({
    path: String(args[0] ?? '').replace(/^\/+/, ''),
    ref: flags.ref as string | undefined,
    limit: positiveInt(flags.limit, '--limit', 50),
  }),
  async run(o, deps) {
    const repo = await deps.repo();
    const client = await deps.client(repo.host);
    const { values, truncated } = await collectPages<RestCommit>(
      client,
      `${repoPath(repo.project, repo.slug)}/commits`,
      { path: o.path, until: o.ref },
      o.limit,
    );
    const commits = values.map(toCommit);
    return { repository: `${repo.project}/${repo.slug}`, commits, count: commits.length, truncated };
  },
  human: commitList.human,
});
