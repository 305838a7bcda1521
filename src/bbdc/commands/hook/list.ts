import type { HookListOutput } from '../../../../generated/types/cli/output/hook-list.ts';
import { hooksPath, type RestHook, toHook } from '../../api/hooks.ts';
import { collectPages } from '../../api/paging.ts';
import { scopeId } from '../../api/scope.ts';
import { limitFlag } from '../../cli/paging-flags.ts';
import { projectOption, projectScopeFlag, resolveScope } from '../../cli/scope.ts';
import { defineCommand } from '../../command.ts';
import { positiveInt } from '../repo/list.ts';

type Options = { project?: string; type?: 'PRE_RECEIVE' | 'POST_RECEIVE'; limit: number };

/** `bbdc hook list`: the hooks of a repository (or of a project with --project) and whether each is enabled. */
export const command = defineCommand<Options, HookListOutput>({
  name: 'hook list',
  summary: 'List repository hooks and merge checks with their enabled state',
  description:
    'Lists the hooks of the current repository, or of a project with --project. A repository hook that follows its project setting says so in the "from" column. Needs REPO_ADMIN (PROJECT_ADMIN for a project).',
  args: [],
  flags: {
    project: projectScopeFlag,
    type: {
      type: 'string',
      value: 'TYPE',
      choices: ['PRE_RECEIVE', 'POST_RECEIVE'],
      description: 'Only hooks of this type',
    },
    limit: limitFlag('hooks', 100),
  },
  outputSchema: 'hook-list',
  effect: 'safe',
  examples: ['bbdc hook list -R PROJ/api', 'bbdc hook list --project PROJ --type PRE_RECEIVE'],
  parse: ({ flags }) => ({
    project: projectOption(flags.project),
    type: flags.type as Options['type'],
    limit: positiveInt(flags.limit, '--limit', 100),
  }),
  async run(o, deps) {
    const { scope, host } = await resolveScope(deps, o.project);
    const client = await deps.client(host);
    const { values, truncated } = await collectPages<RestHook>(
      client,
      hooksPath(scope),
      { type: o.type },
      o.limit,
    );
    const hooks = values.map((h) => toHook(h, scope));
    return { scope: { type: scope.type, id: scopeId(scope) }, hooks, count: hooks.length, truncated };
  },
  human(d, ui) {
    ui.table(
      ['key', 'name', 'type', 'enabled', 'from'],
      d.hooks.map((h) => [
        h.shortKey,
        h.name,
        h.type,
        h.enabled ? 'yes' : 'no',
        h.inheritedFrom ?? d.scope.type,
      ]),
    );
    if (d.truncated) ui.notice(`Showing the first ${d.count}; raise --limit for more.`);
  },
});
