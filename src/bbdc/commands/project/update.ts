import type { ProjectOutput } from '../../../../generated/types/cli/output/project.ts';
import { identify } from '../../api/identity.ts';
import { getIfExists } from '../../api/optional.ts';
import { ifExists } from '../../api/permission-check.ts';
import { projectBody, projectPath, type RestProject, toProject } from '../../api/projects.ts';
import { type Changes, differences, parseChanges, updateFlags } from '../../cli/update-flags.ts';
import { defineCommand } from '../../command.ts';
import { normalizeProjectKey } from '../../config/remote-url.ts';
import { httpPlan } from '../../output/http-plan.ts';
import { printProject } from './get.ts';

type Options = { key: string; changes: Changes };

/** `bbdc project update <key>`: changes a project's name, description or visibility. */
export const command = defineCommand<Options, ProjectOutput>({
  name: 'project update',
  summary: "Change a project's name, description or visibility",
  args: [{ name: 'key', required: true, description: 'Project key' }],
  flags: updateFlags('New name'),
  outputSchema: 'project',
  effect: 'mutating',
  needs: {
    permission: 'PROJECT_ADMIN',
    action: 'changing a project',
    target: async (o, deps) => ifExists(await deps.client(), projectPath(o.key), { project: o.key }),
  },
  examples: ['bbdc project update PROJ --description "Payments team" --visibility private'],
  parse: ({ args, flags }) => {
    const changes = parseChanges(flags);
    return { key: normalizeProjectKey(args[0]), changes };
  },
  async plan(o, deps) {
    const host = await deps.host();
    const client = await deps.client(host);
    const { username } = await identify(client, host.url);
    const current = await getIfExists<RestProject>(client, projectPath(o.key));
    const diff = current ? differences(current, o.changes) : [];
    return httpPlan({
      intent: `bbdc project update ${o.key}`,
      host: host.url,
      target: { type: 'project', id: o.key },
      request: {
        method: 'PUT',
        path: projectPath(o.key),
        body: current ? projectBody(current, o.changes) : o.changes,
      },
      description: `update project ${o.key}`,
      predicted: diff.length ? 'update' : 'no-op',
      reasons: [`authenticated as ${username}`, ...diff],
      blocking: current ? [] : [`project ${o.key} does not exist`],
    });
  },
  async run(o, deps) {
    const client = await deps.client();
    const current = await client.get<RestProject>(projectPath(o.key));
    const res = await client.request<RestProject>('PUT', projectPath(o.key), {
      body: projectBody(current, o.changes),
    });
    return toProject(res.data);
  },
  human(d, ui) {
    ui.line(`Updated project ${d.key}.`);
    printProject(d, ui);
  },
});
