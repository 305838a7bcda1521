import type { HookListOutput } from '../../../../../generated/types/cli/output/hook-list.ts';
import { hooksPath, type RestHook, toHook } from '../../../api/hooks.ts';
import { collectPages } from '../../../api/paging.ts';
import { scopeId } from '../../../api/scope.ts';
import { limitFlag } from '../../../cli/paging-flags.ts';
import { defineCommand } from '../../../command.ts';
import { command as hookList } from '../../hook/list.ts';
import { positiveInt } from '../../repo/list.ts';

/**
 * `bbdc repo settings pull-requests merge-checks list`: the repository's merge checks, which Bitbucket serves as
 * hooks of type PRE_PULL_REQUEST_MERGE. The 9.4 document's `type` filter takes only PRE_RECEIVE and POST_RECEIVE,
 * so every hook is read and the merge checks are kept here.
 */
export const command = defineCommand<{ limit: number }, HookListOutput>({
  name: 'repo settings pull-requests merge-checks list',
  summary: 'List the merge checks of a repository and whether each is enabled',
  description:
    'Merge checks are the hooks of type PRE_PULL_REQUEST_MERGE (required approvals, builds, tasks, ...); turn one on or off with `bbdc hook enable|disable <key>`. Needs REPO_ADMIN.',
  args: [],
  flags: {
    limit: limitFlag('merge checks', 100),
  },
  outputSchema: 'hook-list',
  effect: 'safe',
  examples: ['bbdc repo settings pull-requests merge-checks list -R PROJ/api'],
  parse: ({ flags }) => ({ limit: positiveInt(flags.limit, '--limit', 100) }),
  async run(o, deps) {
    const repo = await deps.repo();
    const client = await deps.client(repo.host);
    const scope = { type: 'repository' as const, project: repo.project, slug: repo.slug };
    const { values } = await collectPages<RestHook>(client, hooksPath(scope), {}, undefined);
    const checks = values
      .filter((h) => h.details?.type === 'PRE_PULL_REQUEST_MERGE')
      .map((h) => toHook(h, scope));
    const hooks = checks.slice(0, o.limit);
    return {
      scope: { type: scope.type, id: scopeId(scope) },
      hooks,
      count: hooks.length,
      truncated: checks.length > hooks.length,
    };
  },
  human: (d, ui) => hookList.human(d, ui),
});
