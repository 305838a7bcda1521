import type { SearchReposOutput } from '../../../../generated/types/cli/output/search-repos.ts';
import { collectMatching } from '../../api/filtered-pages.ts';
import { type RestRepository, toRepository } from '../../api/repositories.ts';
import { limitFlag } from '../../cli/paging-flags.ts';
import { defineCommand } from '../../command.ts';
import { normalizeProjectKey } from '../../config/remote-url.ts';
import { positiveInt } from '../repo/list.ts';

type Options = {
  query?: string;
  project?: string;
  visibility?: 'public' | 'private';
  archived: 'active' | 'archived' | 'all';
  limit: number;
};

/** `bbdc search repos [text]`: repositories whose name contains the text, via the server's repository list. */
export const command = defineCommand<Options, SearchReposOutput>({
  name: 'search repos',
  summary: 'Find repositories by name (not code search)',
  description:
    "Filters the server's repository list (GET /rest/api/latest/repos) by name, project, visibility and archive state. This is not code search: it never looks inside files.",
  args: [{ name: 'text', required: false, description: 'Part of the repository name, case-insensitive' }],
  flags: {
    project: {
      type: 'string',
      shortFlag: 'p',
      value: 'KEY',
      description: 'Only repositories of this project',
    },
    visibility: {
      type: 'string',
      value: 'VISIBILITY',
      choices: ['public', 'private'],
      description: 'Only public or only private repositories',
    },
    archived: {
      type: 'string',
      value: 'STATE',
      choices: ['active', 'archived', 'all'],
      description: 'active (default), archived or all',
    },
    limit: limitFlag('results', 30),
  },
  outputSchema: 'search-repos',
  effect: 'safe',
  examples: ['bbdc search repos api', 'bbdc search repos --project PROJ --visibility public --json'],
  parse: ({ args, flags }) => ({
    query: args[0]?.trim() || undefined,
    project: flags.project ? normalizeProjectKey(String(flags.project)) : undefined,
    visibility: flags.visibility as Options['visibility'],
    archived: (flags.archived as Options['archived']) ?? 'active',
    limit: positiveInt(flags.limit, '--limit', 30),
  }),
  async run(o, deps) {
    const client = await deps.client();
    const text = o.query?.toLowerCase();
    // The server filters; the same test here keeps the answer right on servers that ignore a filter.
    const keep = (r: RestRepository) =>
      (!text || r.name.toLowerCase().includes(text) || r.slug.includes(text)) &&
      (!o.project || r.project.key.toUpperCase() === o.project.toUpperCase()) &&
      (!o.visibility || (r.public === true) === (o.visibility === 'public'));
    const { values, truncated } = await collectMatching<RestRepository>(
      client,
      '/rest/api/latest/repos',
      {
        name: o.query,
        projectkey: o.project,
        visibility: o.visibility,
        archived: o.archived.toUpperCase(),
      },
      o.limit,
      keep,
    );
    const repositories = values.map(toRepository);
    return { ...(o.query && { query: o.query }), repositories, count: repositories.length, truncated };
  },
  human(d, ui) {
    if (d.count === 0) {
      ui.notice(`No repositories match${d.query ? ` "${d.query}"` : ''}.`);
      return;
    }
    ui.table(
      ['repository', 'name', 'visibility'],
      d.repositories.map((r) => [`${r.project}/${r.slug}`, r.name, r.public ? 'public' : 'private']),
    );
    if (d.truncated) ui.notice(`Showing the first ${d.count}; raise --limit for more.`);
  },
});
