import type { ProjectOutput } from '../../../../generated/types/cli/output/project.ts';
import { projectPath, type RestProject, toProject } from '../../api/projects.ts';
import { defineCommand } from '../../command.ts';
import { normalizeProjectKey } from '../../config/remote-url.ts';
import type { Ui } from '../../output/ui.ts';

/** Prints a project as `field: value` lines. */
export function printProject(p: ProjectOutput, ui: Ui): void {
  ui.line(`${ui.bold(p.key)}  ${p.name}`);
  ui.line(`visibility:   ${p.public ? 'public' : 'private'}`);
  ui.line(`type:         ${p.type.toLowerCase()}`);
  if (p.description) ui.line(`description:  ${p.description}`);
  if (p.url) ui.line(`url:          ${p.url}`);
}

/** `bbdc project get <key>`: one project. */
export const command = defineCommand<{ key: string }, ProjectOutput>({
  name: 'project get',
  summary: 'Show a project',
  args: [{ name: 'key', required: true, description: 'Project key (or ~user for a personal project)' }],
  flags: {},
  outputSchema: 'project',
  effect: 'safe',
  examples: ['bbdc project get PROJ'],
  parse: ({ args }) => ({ key: normalizeProjectKey(args[0]) }),
  async run(o, deps) {
    const client = await deps.client();
    return toProject(await client.get<RestProject>(projectPath(o.key)));
  },
  human: printProject,
});
