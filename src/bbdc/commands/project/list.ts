import type { ProjectListOutput } from '../../../../generated/types/cli/output/project-list.ts';
import { pagedOutput } from '../../api/paged-list.ts';
import { type RestProject, toProject } from '../../api/projects.ts';
import { pagingFlags, parsePaging } from '../../cli/paging-flags.ts';
import { defineCommand } from '../../command.ts';

type Options = { limit: number; start: number; name?: string; permission?: string };

/** `bbdc project list`: projects the caller can see, filtered by name or by the caller's permission. */
export const command = defineCommand<Options, ProjectListOutput>({
  name: 'project list',
  summary: 'List projects',
  args: [],
  flags: {
    ...pagingFlags('projects', 100),
    name: { type: 'string', value: 'TEXT', description: 'Only projects whose name contains TEXT' },
    permission: {
      type: 'string',
      value: 'LEVEL',
      choices: ['PROJECT_READ', 'PROJECT_WRITE', 'PROJECT_ADMIN'],
      description: 'Only projects where you hold at least LEVEL',
    },
  },
  outputSchema: 'project-list',
  effect: 'safe',
  examples: ['bbdc project list', 'bbdc project list --permission PROJECT_ADMIN --json'],
  parse: ({ flags }) => ({
    ...parsePaging(flags, 100),
    name: flags.name as string | undefined,
    permission: flags.permission as string | undefined,
  }),
  async run(o, deps) {
    const client = await deps.client();
    const query = { name: o.name, permission: o.permission };
    const path = '/rest/api/latest/projects';
    return pagedOutput(
      { client, path, query, limit: o.limit, start: o.start },
      'projects',
      (p: RestProject) => toProject(p),
    );
  },
  // Printed as the pages arrive, a window of rows at a time (the table keeps the first window's widths).
  humanStreams: true,
  human(d, ui) {
    if (!d.projects.length) ui.notice('No projects found.');
    ui.table(
      ['key', 'name', 'visibility', 'description'],
      d.projects.map((p) => [p.key, p.name, p.public ? 'public' : 'private', p.description ?? '']),
    );
    if (d.truncated) ui.notice(`Showing the first ${d.count}; raise --limit for more.`);
  },
});
