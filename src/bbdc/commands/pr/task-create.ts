import type { PrCommentOutput } from '../../../../generated/types/cli/output/pr-comment.ts';
import { type RestComment, toComment } from '../../api/comments.ts';
import type { Id } from '../../api/ids.ts';
import { parsePrId, prPath } from '../../api/pull-requests.ts';
import { defineCommand } from '../../command.ts';
import { bodyFlags, bodySource, readBody } from './comment-body.ts';
import type { DescriptionSource } from './description-input.ts';
import { planPrChange, prContext, prIdArg } from './pr-context.ts';

type Options = { id: Id; body: DescriptionSource };

/** `bbdc pr task create <id> --body TEXT`: adds a task (a blocker comment) that must be resolved before merging. */
export const command = defineCommand<Options, PrCommentOutput>({
  name: 'pr task create',
  summary: 'Add a task to a pull request',
  args: [prIdArg],
  flags: bodyFlags,
  outputSchema: 'pr-comment',
  effect: 'mutating',
  examples: ['bbdc pr task create 42 --body "Update the changelog"'],
  parse: ({ args, flags }) => ({ id: parsePrId(args[0]), body: bodySource(flags) }),
  plan: async (o, deps) => {
    const text = await readBody(o.body, deps);
    return planPrChange(deps, o.id, `bbdc pr task create ${o.id}`, (pr, { repo }) => ({
      description: `add the task "${text.split('\n')[0]}" to pull request #${o.id}`,
      method: 'POST',
      path: prPath(repo, o.id, '/blocker-comments'),
      body: { text },
      predictedAction: 'create',
      blockingReasons: pr.state === 'OPEN' ? [] : [`pull request #${o.id} is ${pr.state}`],
    }));
  },
  async run(o, deps) {
    const text = await readBody(o.body, deps);
    const { repo, client } = await prContext(deps);
    const res = await client.request<RestComment>('POST', prPath(repo, o.id, '/blocker-comments'), {
      body: { text },
    });
    return toComment(res.data);
  },
  human(d, ui) {
    ui.line(`Added task #${d.id}: ${d.text.split('\n')[0]}`);
  },
});
