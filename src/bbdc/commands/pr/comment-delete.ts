import type { PrCommentDeleteOutput } from '../../../../generated/types/cli/output/pr-comment-delete.ts';
import type { Id } from '../../api/ids.ts';
import { parsePrId } from '../../api/pull-requests.ts';
import { type CommandDeps, defineCommand } from '../../command.ts';
import { apply, planOf } from '../../output/change.ts';
import { parseCommentId } from './comment-body.ts';
import { commentChange } from './comment-change.ts';
import { prIdArg } from './pr-context.ts';

type Options = { id: Id; comment: Id };

const prepare = (o: Options, deps: CommandDeps) =>
  commentChange(deps, o.id, o.comment, `bbdc pr comment delete ${o.id} ${o.comment}`, (path, c) => ({
    request: { method: 'DELETE', path, query: { version: c.version } },
    description: `delete comment ${o.comment} on pull request #${o.id}`,
    predicted: 'delete',
    reasons: [`the comment is at version ${c.version}`],
  }));

/** `bbdc pr comment delete <id> <comment>`: deletes a comment without replies (the version read just before). */
export const command = defineCommand<Options, PrCommentDeleteOutput>({
  name: 'pr comment delete',
  summary: 'Delete a pull request comment that has no replies',
  args: [prIdArg, { name: 'comment', required: true, description: 'Comment id (see bbdc pr comment list)' }],
  flags: {},
  outputSchema: 'pr-comment-delete',
  effect: 'mutating',
  examples: ['bbdc pr comment delete 42 1234'],
  parse: ({ args }) => ({ id: parsePrId(args[0]), comment: parseCommentId(args[1], 'comment') }),
  plan: async (o, deps) => planOf((await prepare(o, deps)).change),
  async run(o, deps) {
    const { change, repository } = await prepare(o, deps);
    await apply(change);
    return { pullRequest: o.id, repository, comment: o.comment, deleted: true as const };
  },
  human(d, ui) {
    ui.line(`Deleted comment #${d.comment} of pull request #${d.pullRequest}`);
  },
});
