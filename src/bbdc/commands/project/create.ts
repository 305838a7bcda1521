import type { ProjectOutput } from '../../../../generated/types/cli/output/project.ts';
import { UsageError } from '../../../core/errors.ts';
import { identify } from '../../api/identity.ts';
import { getIfExists } from '../../api/optional.ts';
import { projectPath, type RestProject, toProject } from '../../api/projects.ts';
import { defineCommand } from '../../command.ts';
import { httpPlan } from '../../output/http-plan.ts';
import { printProject } from './get.ts';

type Options = { key: string; name: string; description?: string; public: boolean };

/** `bbdc project create <key> --name NAME`: creates a project; --dry-run predicts create or conflict. */
export const command = defineCommand<Options, ProjectOutput>({
  name: 'project create',
  summary: 'Create a project',
  args: [{ name: 'key', required: true, description: 'Project key: a letter, then letters, digits or _' }],
  flags: {
    name: { type: 'string', value: 'NAME', description: 'Project name (default: the key)' },
    description: { type: 'string', value: 'TEXT', description: 'Project description' },
    public: { type: 'boolean', description: 'Let anyone, even anonymous users, read it' },
  },
  outputSchema: 'project',
  effect: 'mutating',
  examples: ['bbdc project create PLAT --name Platform --description "Shared services"'],
  parse: ({ args, flags }) => {
    if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(args[0]))
      throw new UsageError(
        `project key "${args[0]}" must start with a letter and hold only letters, digits or _`,
      );
    const key = args[0].toUpperCase();
    return {
      key,
      name: (flags.name as string | undefined) ?? key,
      description: flags.description as string | undefined,
      public: flags.public === true,
    };
  },
  async plan(o, deps) {
    const host = await deps.host();
    const client = await deps.client(host);
    const { username } = await identify(client, host.url);
    const existing = await getIfExists<RestProject>(client, projectPath(o.key));
    return httpPlan({
      intent: `bbdc project create ${o.key}`,
      host: host.url,
      target: { type: 'project', id: o.key },
      request: { method: 'POST', path: '/rest/api/latest/projects', body: body(o) },
      description: `create project ${o.key} (${o.name})`,
      predicted: 'create',
      reasons: [
        `authenticated as ${username}`,
        'creating a project needs the global PROJECT_CREATE permission',
      ],
      blocking: existing ? [`project ${o.key} already exists`] : [],
    });
  },
  async run(o, deps) {
    const client = await deps.client();
    const res = await client.request<RestProject>('POST', '/rest/api/latest/projects', { body: body(o) });
    return toProject(res.data);
  },
  human(d, ui) {
    ui.line(`Created project ${d.key}.`);
    printProject(d, ui);
  },
});

function body(o: Options) {
  return { key: o.key, name: o.name, ...(o.description && { description: o.description }), public: o.public };
}
