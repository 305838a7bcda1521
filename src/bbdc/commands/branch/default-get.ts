import type { BranchOutput } from '../../../../generated/types/cli/output/branch.ts';
import { RealmforgeError } from '../../../core/errors.ts';
import { defaultBranch, toBranch } from '../../api/refs.ts';
import { defineCommand } from '../../command.ts';

/** `bbdc branch default get`: the repository's default branch. */
export const command = defineCommand<Record<string, never>, BranchOutput>({
  name: 'branch default get',
  summary: 'Show the default branch',
  args: [],
  flags: {},
  outputSchema: 'branch',
  effect: 'safe',
  examples: ['bbdc branch default get -R PROJ/api'],
  parse: () => ({}),
  async run(_o, deps) {
    const repo = await deps.repo();
    const client = await deps.client(repo.host);
    const def = await defaultBranch(client, repo);
    if (!def)
      throw new RealmforgeError(
        'not_found',
        `${repo.project}/${repo.slug} has no default branch (it is empty)`,
      );
    return toBranch(def, def.displayId);
  },
  human(d, ui) {
    ui.line(d.name);
  },
});
