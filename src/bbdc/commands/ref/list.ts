import type { RefListOutput } from '../../../../generated/types/cli/output/ref-list.ts';
import { collectPages } from '../../api/paging.ts';
import type { RestRef } from '../../api/refs.ts';
import { repoPath } from '../../api/repositories.ts';
import { positiveInt } from '../../cli/paging-flags.ts';
import { defineCommand } from '../../command.ts';

type Options = { filter?: string; type: 'all' | 'branch' | 'tag'; limit: number };

/** `bbdc ref list`: branches and tags together, filtered by name; --limit caps each kind's total. */
export const command = defineCommand<Options, RefListOutput>({
  name: 'ref list',
  summary: 'List branches and tags together, filtered by name',
  args: [],
  flags: {
    filter: { type: 'string', value: 'TEXT', description: 'Only refs whose name contains this text' },
    type: {
      type: 'string',
      value: 'TYPE',
      choices: ['all', 'branch', 'tag'],
      description: 'all (default), branch or tag',
    },
    limit: {
      type: 'string',
      shortFlag: 'L',
      value: 'N',
      description: 'Maximum number in total (default 100)',
    },
  },
  outputSchema: 'ref-list',
  effect: 'safe',
  examples: ['bbdc ref list --filter release', 'bbdc ref list --type tag --limit 10'],
  parse: ({ flags }) => ({
    filter: flags.filter as string | undefined,
    type: (flags.type as Options['type']) ?? 'all',
    limit: positiveInt(flags.limit, '--limit', 100),
  }),
  async run(o, deps) {
    const repo = await deps.repo();
    const client = await deps.client(repo.host);
    const base = repoPath(repo.project, repo.slug);
    const refs: RefListOutput['refs'] = [];
    let truncated = false;
    for (const kind of ['branch', 'tag'] as const) {
      if (o.type !== 'all' && o.type !== kind) continue;
      const left = o.limit - refs.length;
      if (left <= 0) {
        truncated = true;
        break;
      }
      const page = await collectPages<RestRef>(
        client,
        `${base}/${kind === 'branch' ? 'branches' : 'tags'}`,
        { filterText: o.filter, orderBy: 'ALPHABETICAL' },
        left,
      );
      truncated ||= page.truncated;
      for (const r of page.values)
        refs.push({
          type: kind,
          name: r.displayId,
          id: r.id,
          commit: r.latestCommit ?? r.latestChangeset ?? '',
        });
    }
    return { repository: `${repo.project}/${repo.slug}`, refs, truncated };
  },
  human(d, ui) {
    if (!d.refs.length) ui.notice('No refs match.');
    ui.table(
      ['type', 'name', 'commit'],
      d.refs.map((r) => [r.type, r.name, r.commit.slice(0, 11)]),
    );
    if (d.truncated) ui.notice(`Showing the first ${d.refs.length}; raise --limit for more.`);
  },
});
