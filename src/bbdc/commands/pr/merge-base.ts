import type { CommitOutput } from '../../../../generated/types/cli/output/commit.ts';
import { type RestCommit, toCommit } from '../../api/commits.ts';
import type { Id } from '../../api/ids.ts';
import { parsePrId, prPath } from '../../api/pull-requests.ts';
import { defineCommand } from '../../command.ts';
import { command as commitGet } from '../commit/get.ts';
import { prContext, prIdArg } from './pr-context.ts';

/** `bbdc pr merge-base <id>`: the common ancestor of the pull request's source and target. */
export const command = defineCommand<{ id: Id }, CommitOutput>({
  name: 'pr merge-base',
  summary: "Show the common ancestor of a pull request's source and target",
  args: [prIdArg],
  flags: {},
  outputSchema: 'commit',
  effect: 'safe',
  examples: ['bbdc pr merge-base 42', 'git diff $(bbdc pr merge-base 42 --json | jq -r .data.id)'],
  parse: ({ args }) => ({ id: parsePrId(args[0]) }),
  async run(o, deps) {
    const { repo, client } = await prContext(deps);
    return toCommit(await client.get<RestCommit>(prPath(repo, o.id, '/merge-base')));
  },
  human: commitGet.human,
});
