import type { PermissionShowOutput } from '../../../../generated/types/cli/output/permission-show.ts';
import { type RestRepository, repoPath } from '../../api/repositories.ts';
import { repoFromArg } from '../../cli/repo-arg.ts';
import { defineCommand } from '../../command.ts';
import { effectivePermission, printEffective } from '../permissions/effective.ts';
import { repoArg } from './get.ts';

/** `bbdc repo permissions show [repository]`: the caller's effective permission on a repository. */
export const command = defineCommand<{ repo?: string }, PermissionShowOutput>({
  name: 'repo permissions show',
  summary: 'Show your effective permission on a repository',
  description:
    "Counts every grant that reaches you: the repository's, the project's, your groups' and global ones.",
  args: [repoArg],
  flags: {},
  outputSchema: 'permission-show',
  effect: 'safe',
  examples: ['bbdc repo permissions show PROJ/api', 'bbdc repo permissions show --json'],
  parse: ({ args }) => ({ repo: args[0] }),
  async run(o, deps) {
    const repo = await repoFromArg(o.repo, deps);
    const client = await deps.client(repo.host);
    const r = await client.get<RestRepository>(repoPath(repo.project, repo.slug));
    return effectivePermission(client, repo.host.url, {
      kind: 'repository',
      project: r.project.key,
      slug: r.slug,
      name: r.name,
    });
  },
  human: printEffective,
});
