import type { RepoListOutput } from '../../../../generated/types/cli/output/repo-list.ts';
import { pagedOutput } from '../../api/paged-list.ts';
import { projectPath } from '../../api/projects.ts';
import { type RestRepository, toRepository } from '../../api/repositories.ts';
import { pagingFlags, parsePaging } from '../../cli/paging-flags.ts';
import { defineCommand } from '../../command.ts';
import { normalizeProjectKey } from '../../config/remote-url.ts';

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
    const path = o.project ? `${projectPath(o.project)}/repos` : '/rest/api/latest/repos';
    // Printed as the pages arrive (--json); count and truncated are known once the list is written.
    return pagedOutput(
      { client, path, limit: o.limit, start: o.start },
      'repositories',
      (r: RestRepository) => toRepository(r),
    );
  },
  // Printed as the pages arrive, a window of rows at a time (the table keeps the first window's widths).
  humanStreams: true,
  human(d, ui) {
    if (!d.repositories.length) ui.notice('No repositories found.');
    ui.table(
      ['repository', 'name', 'visibility'],
      d.repositories.map((r) => [`${r.project}/${r.slug}`, r.name, r.public ? 'public' : 'private']),
    );
    if (d.truncated) ui.notice(`Showing the first ${d.count}; raise --limit for more.`);
  },
});
