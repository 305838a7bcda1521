import type { PrAutoMergeOutput } from '../../../../generated/types/cli/output/pr-auto-merge.ts';
import type { Id } from '../../api/ids.ts';
import { fetchPullRequest, parsePrId } from '../../api/pull-requests.ts';
import { defineCommand } from '../../command.ts';
import { printAutoMerge, readAutoMerge, toAutoMerge } from './auto-merge-request.ts';
import { prContext, prIdArg } from './pr-context.ts';

type Options = { id: Id };

/** `bbdc pr auto-merge get <id>`: whether the pull request merges by itself once its checks pass. */
export const command = defineCommand<Options, PrAutoMergeOutput>({
  name: 'pr auto-merge get',
  summary: 'Show whether auto-merge is on for a pull request',
  args: [prIdArg],
  flags: {},
  outputSchema: 'pr-auto-merge',
  effect: 'safe',
  examples: ['bbdc pr auto-merge get 42'],
  parse: ({ args }) => ({ id: parsePrId(args[0]) }),
  async run(o, deps) {
    const { repo, client } = await prContext(deps);
    // Read the pull request first so a 404 for a missing one is not mistaken for "no auto-merge".
    await fetchPullRequest(client, repo, o.id);
    return toAutoMerge(repo, o.id, await readAutoMerge(client, repo, o.id));
  },
  human: printAutoMerge,
});
