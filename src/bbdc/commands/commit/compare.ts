import type { CommitCompareOutput } from '../../../../generated/types/cli/output/commit-compare.ts';
import { type RestCommit, toCommit } from '../../api/commits.ts';
import { collectPages } from '../../api/paging.ts';
import { repoPath } from '../../api/repositories.ts';
import { pagingFlags, parsePaging } from '../../cli/paging-flags.ts';
import { defineCommand } from '../../command.ts';
import { printCommits } from './list.ts';

type Options = { from: string; to: string; limit: number; start: number };

/** `bbdc commit compare <from> <to>`: the commits on FROM that TO lacks, as a pull request from FROM to TO would carry. */
export const command = defineCommand<Options, CommitCompareOutput>({
  name: 'commit compare',
  summary: 'List the commits on one ref that another lacks',
  description:
    'Lists what a pull request from FROM into TO would bring: commits reachable from FROM and not from TO.',
  args: [
    { name: 'from', required: true, description: 'Source branch, ref or commit' },
    { name: 'to', required: true, description: 'Target branch, ref or commit' },
  ],
  flags: pagingFlags('commits', 100),
  outputSchema: 'commit-compare',
  effect: 'safe',
  examples: ['bbdc commit compare feature/login main -R PROJ/api'],
  parse: ({ args, flags }) => ({ from: args[0], to: args[1], ...parsePaging(flags, 100) }),
  async run(o, deps) {
    const repo = await deps.repo();
    const client = await deps.client(repo.host);
    const { values, truncated } = await collectPages<RestCommit>(
      client,
      `${repoPath(repo.project, repo.slug)}/compare/commits`,
      { from: o.from, to: o.to },
      o.limit,
      o.start,
    );
    const commits = values.map(toCommit);
    return {
      repository: `${repo.project}/${repo.slug}`,
      from: o.from,
      to: o.to,
      commits,
      count: commits.length,
      truncated,
    };
  },
  human(d, ui) {
    if (!d.commits.length) ui.notice(`${d.to} already has every commit of ${d.from}.`);
    printCommits(d.commits, ui);
    if (d.truncated) ui.notice(`Showing the first ${d.count}; raise --limit for more.`);
  },
});
