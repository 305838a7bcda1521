import type { DeletionOutput } from '../../../../generated/types/cli/output/deletion.ts';
import { identify } from '../../api/identity.ts';
import { getIfExists } from '../../api/optional.ts';
import type { Page } from '../../api/paging.ts';
import { ifExists } from '../../api/permission-check.ts';
import { projectPath, type RestProject } from '../../api/projects.ts';
import { confirmByName } from '../../cli/confirm.ts';
import { defineCommand } from '../../command.ts';
import { normalizeProjectKey } from '../../config/remote-url.ts';
import { httpPlan } from '../../output/http-plan.ts';

type Options = { key: string; yes: boolean };

/** `bbdc project delete <key> --yes`: deletes an empty project. */
export const command = defineCommand<Options, DeletionOutput>({
  name: 'project delete',
  summary: 'Delete an empty project',
  description:
    'Bitbucket refuses to delete a project that still has repositories. Asks for the key on a terminal unless --yes is given.',
  args: [{ name: 'key', required: true, description: 'Project key' }],
  flags: { yes: { type: 'boolean', shortFlag: 'y', description: 'Do not ask for confirmation' } },
  outputSchema: 'deletion',
  effect: 'mutating',
  needs: {
    permission: 'PROJECT_ADMIN',
    action: 'deleting a project',
    target: async (o, deps) => ifExists(await deps.client(), projectPath(o.key), { project: o.key }),
  },
  examples: ['bbdc project delete OLD --yes', 'bbdc project delete OLD --dry-run'],
  parse: ({ args, flags }) => ({ key: normalizeProjectKey(args[0]), yes: flags.yes === true }),
  async plan(o, deps) {
    const host = await deps.host();
    const client = await deps.client(host);
    const { username } = await identify(client, host.url);
    const project = await getIfExists<RestProject>(client, projectPath(o.key));
    const repos = project
      ? await client.get<Page<unknown>>(`${projectPath(o.key)}/repos`, { limit: 1 })
      : undefined;
    const blocking = !project
      ? [`project ${o.key} does not exist`]
      : repos?.values.length
        ? [`project ${o.key} still has repositories; delete or move them first`]
        : [];
    return httpPlan({
      intent: `bbdc project delete ${o.key}`,
      host: host.url,
      target: { type: 'project', id: o.key },
      request: { method: 'DELETE', path: projectPath(o.key) },
      description: `delete project ${o.key}`,
      predicted: 'delete',
      reasons: [`authenticated as ${username}`],
      blocking,
    });
  },
  async run(o, deps) {
    await confirmByName(deps, 'project', o.key, o.yes);
    const client = await deps.client();
    await client.request('DELETE', projectPath(o.key));
    return { type: 'project', id: o.key, deleted: true };
  },
  human(d, ui) {
    ui.line(`Deleted project ${d.id}.`);
  },
});
