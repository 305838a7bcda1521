import type { PrAutoMergeOutput } from '../../../../generated/types/cli/output/pr-auto-merge.ts';
import type { Id } from '../../api/ids.ts';
import { parsePrId, prPath } from '../../api/pull-requests.ts';
import { defineCommand } from '../../command.ts';
import { printAutoMerge, readAutoMerge, toAutoMerge } from './auto-merge-request.ts';
import { planPrChange, prContext, prIdArg } from './pr-context.ts';

type Options = { id: Id };

/** `bbdc pr auto-merge disable <id>`: cancels the pull request's auto-merge request. */
export const command = defineCommand<Options, PrAutoMergeOutput>({
  name: 'pr auto-merge disable',
  summary: 'Turn auto-merge off for a pull request',
  args: [prIdArg],
  flags: {},
  outputSchema: 'pr-auto-merge',
  effect: 'mutating',
  needs: { permission: 'REPO_WRITE', action: 'turning off auto-merge' },
  examples: ['bbdc pr auto-merge disable 42'],
  parse: ({ args }) => ({ id: parsePrId(args[0]) }),
  plan: (o, deps) =>
    planPrChange(deps, o.id, `bbdc pr auto-merge disable ${o.id}`, async (_pr, { repo, client }) => {
      const current = await readAutoMerge(client, repo, o.id);
      return {
        description: `turn off auto-merge for pull request #${o.id}`,
        method: 'DELETE',
        path: prPath(repo, o.id, '/auto-merge'),
        predictedAction: current ? 'delete' : 'no-op',
        reasons: [current ? 'auto-merge is on' : 'auto-merge is already off'],
      };
    }),
  async run(o, deps) {
    const { repo, client } = await prContext(deps);
    await client.request('DELETE', prPath(repo, o.id, '/auto-merge'));
    return toAutoMerge(repo, o.id, undefined);
  },
  human: printAutoMerge,
});
