import type { TagListOutput } from '../../../../generated/types/cli/output/tag-list.ts';
import { collectPages } from '../../api/paging.ts';
import { type RestRef, toTag } from '../../api/refs.ts';
import { repoPath } from '../../api/repositories.ts';
import { pagingFlags, parsePaging } from '../../cli/paging-flags.ts';
import { defineCommand } from '../../command.ts';

type Options = { limit: number; start: number; filter?: string; order?: string };

/** `bbdc tag list`: tags of the repository. */
export const command = defineCommand<Options, TagListOutput>({
  name: 'tag list',
  summary: 'List tags',
  args: [],
  flags: {
    ...pagingFlags('tags', 100),
    filter: {
      type: 'string',
      shortFlag: 'f',
      value: 'TEXT',
      description: 'Only tags whose name contains TEXT',
    },
    order: {
      type: 'string',
      value: 'ORDER',
      choices: ['ALPHABETICAL', 'MODIFICATION'],
      description: 'ALPHABETICAL or MODIFICATION (newest first)',
    },
  },
  outputSchema: 'tag-list',
  effect: 'safe',
  examples: ['bbdc tag list -R PROJ/api', 'bbdc tag list --filter v1. --json'],
  parse: ({ flags }) => ({
    ...parsePaging(flags, 100),
    filter: flags.filter as string | undefined,
    order: flags.order as string | undefined,
  }),
  async run(o, deps) {
    const repo = await deps.repo();
    const client = await deps.client(repo.host);
    const { values, truncated } = await collectPages<RestRef>(
      client,
      `${repoPath(repo.project, repo.slug)}/tags`,
      { filterText: o.filter, orderBy: o.order },
      o.limit,
      o.start,
    );
    const tags = values.map(toTag);
    return { repository: `${repo.project}/${repo.slug}`, tags, count: tags.length, truncated };
  },
  human(d, ui) {
    if (!d.tags.length) ui.notice(`No tags in ${d.repository}.`);
    ui.table(
      ['tag', 'commit', 'type'],
      d.tags.map((t) => [t.name, t.latestCommit.slice(0, 11), t.hash ? 'annotated' : 'lightweight']),
    );
    if (d.truncated) ui.notice(`Showing the first ${d.count}; raise --limit for more.`);
  },
});
