import type { PrMergeabilityOutput } from '../../../../generated/types/cli/output/pr-mergeability.ts';
import type { Id } from '../../api/ids.ts';
import { parsePrId, readMergeability } from '../../api/pull-requests.ts';
import { defineCommand } from '../../command.ts';
import { printMergeability } from '../../output/pull-request.ts';
import { prContext, prIdArg } from './pr-context.ts';

type Options = { id: Id };

/** `bbdc pr mergeability <id>`: can it merge, is it conflicted, which merge checks block it; unknown on 404/409. */
export const command = defineCommand<Options, PrMergeabilityOutput>({
  name: 'pr mergeability',
  summary: 'Report whether a pull request can merge and what blocks it',
  description:
    'Some servers answer 404 or 409 while they compute the answer or for closed pull requests; then the result is "unknown" (known: false), not an error.',
  args: [prIdArg],
  flags: {},
  outputSchema: 'pr-mergeability',
  effect: 'safe',
  examples: ['bbdc pr mergeability 42', 'bbdc pr mergeability 42 --json | jq .data.mergeable'],
  parse: ({ args }) => ({ id: parsePrId(args[0]) }),
  async run(o, deps) {
    const { repo, client } = await prContext(deps);
    const m = await readMergeability(client, repo, o.id);
    return { pullRequest: o.id, repository: `${repo.project}/${repo.slug}`, ...m };
  },
  human(d, ui) {
    ui.line(ui.bold(`Pull request #${d.pullRequest} in ${d.repository}`));
    printMergeability(d, ui);
  },
});
