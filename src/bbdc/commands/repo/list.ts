import type { RepoListOutput } from '../../../../generated/types/cli/output/repo-list.ts';
import { streamPages } from '../../api/paging.ts';
import { type RestRepository, toRepository } from '../../api/repositories.ts';
import { pagingFlags, parsePaging } from '../../cli/paging-flags.ts';
import { defineCommand } from '../../command.ts';
import { normalizeProjectKey } from '../../config/remote-url.ts';
import { lazyList } from '../../output/stream-json.ts';

export { positiveInt } from '../../cli/paging-flags.ts';

type Options = { project?: string; limit: number; start: number };

/** `bbdc repo list`: repositories on the server or in one project; --limit caps the total, not the page size. */
export const command = defineCommand<Options, RepoListOutput>({
  name: 'repo list',
  summary: 'List repositories, optionally in one project',
  args: [],
  flags: {
    project: {
      type: 'string',
      shortFlag: 'p',
      value: 'KEY',
      description: 'Only repositories of this project (or ~user)',
    },
    ...pagingFlags('repositories', 100),
  },
  outputSchema: 'repo-list',
  effect: 'safe',
  examples: [
    'bbdc repo list --project PROJ --limit 500',
    'bbdc repo list --project ~alice',
    'bbdc repo list --json',
  ],
  parse: ({ flags }) => ({
    project: flags.project ? normalizeProjectKey(String(flags.project)) : undefined,
    ...parsePaging(flags, 100),
  }),
  async run(o, deps) {
    const client = await deps.client();
    const path = o.project
      ? `/rest/api/latest/projects/${encodeURIComponent(o.project)}/repos`
      : '/rest/api/latest/repos';
    let count = 0;
    let truncated = false;
    const pages = streamPages<RestRepository>(client, path, {}, o.limit, o.start, (t) => {
      truncated = t;
    });
    async function* repositories() {
      for await (const repo of pages) {
        count++;
        yield toRepository(repo);
      }
    }
    // Printed as the pages arrive; count and truncated are read after the list, when they are known.
    return {
      repositories: await lazyList(repositories()),
      get count() {
        return count;
      },
      get truncated() {
        return truncated;
      },
    };
  },
  human(d, ui) {
    if (!d.repositories.length) ui.notice('No repositories found.');
    ui.table(
      ['repository', 'name', 'visibility'],
      d.repositories.map((r) => [`${r.project}/${r.slug}`, r.name, r.public ? 'public' : 'private']),
    );
    if (d.truncated) ui.notice(`Showing the first ${d.count}; raise --limit for more.`);
  },
});
