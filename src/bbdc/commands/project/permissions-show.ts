import type { PermissionShowOutput } from '../../../../generated/types/cli/output/permission-show.ts';
import { projectPath, type RestProject } from '../../api/projects.ts';
import { defineCommand } from '../../command.ts';
import { normalizeProjectKey } from '../../config/remote-url.ts';
import { effectivePermission, printEffective } from '../permissions/effective.ts';

/** `bbdc project permissions show <key>`: the caller's effective permission on a project. */
export const command = defineCommand<{ key: string }, PermissionShowOutput>({
  name: 'project permissions show',
  summary: 'Show your effective permission on a project',
  description: "Counts every grant that reaches you: your own, your groups', and global ones.",
  args: [{ name: 'project', required: true, description: 'Project key' }],
  flags: {},
  outputSchema: 'permission-show',
  effect: 'safe',
  examples: ['bbdc project permissions show PROJ'],
  parse: ({ args }) => ({ key: normalizeProjectKey(args[0]) }),
  async run(o, deps) {
    const host = await deps.host();
    const client = await deps.client(host);
    const project = await client.get<RestProject>(projectPath(o.key));
    return effectivePermission(client, host.url, { kind: 'project', key: project.key, name: project.name });
  },
  human: printEffective,
});
