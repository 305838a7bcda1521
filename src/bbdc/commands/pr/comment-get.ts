import type { PrCommentOutput } from '../../../../generated/types/cli/output/pr-comment.ts';
import { type RestComment, toComment } from '../../api/comments.ts';
import type { Id } from '../../api/ids.ts';
import { parsePrId, prPath } from '../../api/pull-requests.ts';
import { defineCommand } from '../../command.ts';
import { printThread } from '../../output/comment-thread.ts';
import { parseCommentId } from './comment-body.ts';
import { prContext, prIdArg } from './pr-context.ts';

type Options = { id: Id; comment: Id };

/** `bbdc pr comment get <id> <comment>`: one comment with its replies. */
export const command = defineCommand<Options, PrCommentOutput>({
  name: 'pr comment get',
  summary: 'Show one comment of a pull request with its replies',
  args: [prIdArg, { name: 'comment', required: true, description: 'Comment id (see bbdc pr comment list)' }],
  flags: {},
  outputSchema: 'pr-comment',
  effect: 'safe',
  examples: ['bbdc pr comment get 42 1234'],
  parse: ({ args }) => ({ id: parsePrId(args[0]), comment: parseCommentId(args[1], 'comment') }),
  async run(o, deps) {
    const { repo, client } = await prContext(deps);
    return toComment(await client.get<RestComment>(prPath(repo, o.id, `/comments/${o.comment}`)));
  },
  human(d, ui) {
    printThread(d, ui);
  },
});
