import type { RepoListOutput } from '../../../../generated/types/cli/output/repo-list.ts';
import { UsageError } from '../../../core/errors.ts';
import { collectPages } from '../../api/paging.ts';
import { type RestRepository, toRepository } from '../../api/repositories.ts';
import { defineCommand } from '../../command.ts';
import { normalizeProjectKey } from '../../config/remote-url.ts';

type Options = { project?: string; limit: number };

/** Parses a positive whole number flag, naming the flag when it is not one. */
export function positiveInt(value: unknown, flag: string, fallback: number): number {
  if (value === undefined) return fallback;
  const text = String(value);
  if (!/^\d+$/.test(text) || Number(text) < 1)
    throw new UsageError(`${flag} "${text}" must be a whole number of at least 1`);
  return Number(text);
}

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
    limit: {
      type: 'string',
      shortFlag: 'L',
      value: 'N',
      description: 'Maximum number of repositories (default 100)',
    },
  },
  outputSchema: 'repo-list',
  effect: 'safe',
  examples: ['bbdc repo list --project PROJ --limit 500', 'bbdc repo list --json'],
  parse: ({ flags }) => ({
    project: flags.project ? normalizeProjectKey(String(flags.project)) : undefined,
    limit: positiveInt(flags.limit, '--limit', 100),
  }),
  async run(o, deps) {
    const client = await deps.client();
    const path = o.project
      ? `/rest/api/latest/projects/${encodeURIComponent(o.project)}/repos`
      : '/rest/api/latest/repos';
    const { values, truncated } = await collectPages<RestRepository>(client, path, {}, o.limit);
    return { repositories: values.map(toRepository), count: values.length, truncated };
  },
  human(d, ui) {
    ui.table(
      ['repository', 'name', 'visibility'],
      d.repositories.map((r) => [`${r.project}/${r.slug}`, r.name, r.public ? 'public' : 'private']),
    );
    if (d.truncated) ui.notice(`Showing the first ${d.count}; raise --limit for more.`);
  },
});
