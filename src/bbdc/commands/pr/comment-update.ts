import type { PrCommentOutput } from '../../../../generated/types/cli/output/pr-comment.ts';
import type { RestComment } from '../../api/comments.ts';
import type { Id } from '../../api/ids.ts';
import { parsePrId } from '../../api/pull-requests.ts';
import type { CommandDeps } from '../../command.ts';
import { defineCommand } from '../../command.ts';
import { apply, planOf } from '../../output/change.ts';
import { bodyFlags, bodySource, parseCommentId, readBody } from './comment-body.ts';
import { commentChange, toComment } from './comment-change.ts';
import type { DescriptionSource } from './description-input.ts';
import { prIdArg } from './pr-context.ts';

type Options = { id: Id; comment: Id; body: DescriptionSource };

async function prepare(o: Options, deps: CommandDeps) {
  const text = await readBody(o.body, deps);
  return commentChange(deps, o.id, o.comment, `bbdc pr comment update ${o.id} ${o.comment}`, (path, c) => ({
    request: { method: 'PUT', path, body: { version: c.version, text } },
    description: `edit comment ${o.comment} on pull request #${o.id}`,
    predicted: c.text === text ? 'no-op' : 'update',
    reasons: [`the comment is at version ${c.version}`],
  }));
}

/** `bbdc pr comment update <id> <comment> --body TEXT`: edits the text of a comment (the version read just before). */
export const command = defineCommand<Options, PrCommentOutput>({
  name: 'pr comment update',
  summary: 'Edit the text of a pull request comment',
  args: [prIdArg, { name: 'comment', required: true, description: 'Comment id (see bbdc pr comment list)' }],
  flags: bodyFlags,
  outputSchema: 'pr-comment',
  effect: 'mutating',
  examples: ['bbdc pr comment update 42 1234 --body "Fixed wording"'],
  parse: ({ args, flags }) => ({
    id: parsePrId(args[0]),
    comment: parseCommentId(args[1], 'comment'),
    body: bodySource(flags),
  }),
  plan: async (o, deps) => planOf((await prepare(o, deps)).change),
  async run(o, deps) {
    const { change, current } = await prepare(o, deps);
    const res = await apply<RestComment>(change);
    return toComment(res?.data ?? current);
  },
  human(d, ui) {
    ui.line(`Comment #${d.id} is at version ${d.version}: ${d.text.split('\n')[0]}`);
  },
});
