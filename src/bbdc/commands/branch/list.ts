import type { BranchListOutput } from '../../../../generated/types/cli/output/branch-list.ts';
import { pagedOutput } from '../../api/paged-list.ts';
import { type RestRef, toBranch } from '../../api/refs.ts';
import { repoPath } from '../../api/repositories.ts';
import { pagingFlags, parsePaging } from '../../cli/paging-flags.ts';
import { defineCommand } from '../../command.ts';

type Options = { limit: number; start: number; filter?: string; order?: string };

/** `bbdc branch list`: branches of the repository, the default first unless ordered otherwise. */
export const command = defineCommand<Options, BranchListOutput>({
  name: 'branch list',
  summary: 'List branches',
  args: [],
  flags: {
    ...pagingFlags('branches', 100),
    filter: {
      type: 'string',
      shortFlag: 'f',
      value: 'TEXT',
      description: 'Only branches whose name contains TEXT',
    },
    order: {
      type: 'string',
      value: 'ORDER',
      choices: ['ALPHABETICAL', 'MODIFICATION'],
      description: 'ALPHABETICAL or MODIFICATION (most recently changed first)',
    },
  },
  outputSchema: 'branch-list',
  effect: 'safe',
  examples: ['bbdc branch list -R PROJ/api', 'bbdc branch list --filter feature/ --json'],
  parse: ({ flags }) => ({
    ...parsePaging(flags, 100),
    filter: flags.filter as string | undefined,
    order: flags.order as string | undefined,
  }),
  async run(o, deps) {
    const repo = await deps.repo();
    const client = await deps.client(repo.host);
    const path = `${repoPath(repo.project, repo.slug)}/branches`;
    const query = { filterText: o.filter, orderBy: o.order };
    return pagedOutput(
      { client, path, query, limit: o.limit, start: o.start },
      'branches',
      (b: RestRef) => toBranch(b),
      {
        repository: `${repo.project}/${repo.slug}`,
      },
    );
  },
  // Printed as the pages arrive, a window of rows at a time (the table keeps the first window's widths).
  humanStreams: true,
  human(d, ui) {
    if (!d.branches.length) ui.notice(`No branches in ${d.repository}.`);
    ui.table(
      ['', 'branch', 'commit'],
      d.branches.map((b) => [b.default ? '*' : '', b.name, b.latestCommit.slice(0, 11)]),
    );
    if (d.truncated) ui.notice(`Showing the first ${d.count}; raise --limit for more.`);
  },
});
