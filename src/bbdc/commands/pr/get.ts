import type { PrOutput } from '../../../../generated/types/cli/output/pr.ts';
import type { Id } from '../../api/ids.ts';
import { fetchPullRequest, parsePrId, readMergeability, toPullRequest } from '../../api/pull-requests.ts';
import { defineCommand } from '../../command.ts';
import { printPullRequest } from '../../output/pull-request.ts';
import { prContext, prIdArg } from './pr-context.ts';

type Options = { id: Id };

/** `bbdc pr get <id>`: one pull request with its reviewers and whether it can merge now. */
export const command = defineCommand<Options, PrOutput>({
  name: 'pr get',
  summary: 'Show a pull request, its reviewers and whether it can merge',
  args: [prIdArg],
  flags: {},
  outputSchema: 'pr',
  effect: 'safe',
  examples: ['bbdc pr get 42', 'bbdc pr get 42 -R PROJ/api --json'],
  parse: ({ args }) => ({ id: parsePrId(args[0]) }),
  async run(o, deps) {
    const { repo, client } = await prContext(deps);
    const [pr, mergeability] = await Promise.all([
      fetchPullRequest(client, repo, o.id),
      readMergeability(client, repo, o.id),
    ]);
    return { ...toPullRequest(pr, repo), mergeability };
  },
  human: printPullRequest,
});
