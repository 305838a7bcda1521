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
type Kind = 'comment' | 'task';

/**
 * `bbdc pr comment update <id> <comment> --body TEXT` and `bbdc pr task update <id> <task> --body TEXT`: edit the
 * text of a comment or a task (a blocker comment) at the version read just before, so an edit made meanwhile is a
 * conflict, never overwritten.
 */
export function textUpdateCommand(kind: Kind, example: string) {
  const name = `pr ${kind} update`;
  const prepare = async (o: Options, deps: CommandDeps) => {
    const text = await readBody(o.body, deps);
    return commentChange(
      deps,
      o.id,
      o.comment,
      `bbdc ${name} ${o.id} ${o.comment}`,
      (path, c) => ({
        request: { method: 'PUT', path, body: { version: c.version, text } },
        description: `edit ${kind} ${o.comment} on pull request #${o.id}`,
        predicted: c.text === text ? 'no-op' : 'update',
        reasons: [`the ${kind} is at version ${c.version}`],
      }),
      kind === 'task' ? 'blocker-comments' : 'comments',
    );
  };
  return defineCommand<Options, PrCommentOutput>({
    name,
    summary: `Edit the text of a pull request ${kind}`,
    args: [
      prIdArg,
      {
        name: kind,
        required: true,
        description: `${kind[0].toUpperCase()}${kind.slice(1)} id (see bbdc pr ${kind} list)`,
      },
    ],
    flags: bodyFlags,
    outputSchema: 'pr-comment',
    effect: 'mutating',
    examples: [example],
    parse: ({ args, flags }) => ({
      id: parsePrId(args[0]),
      comment: parseCommentId(args[1], kind),
      body: bodySource(flags),
    }),
    plan: async (o, deps) => planOf((await prepare(o, deps)).change),
    async run(o, deps) {
      const { change, current } = await prepare(o, deps);
      const res = await apply<RestComment>(change);
      return toComment(res?.data ?? current);
    },
    human(d, ui) {
      ui.line(
        `${kind === 'task' ? 'Task' : 'Comment'} #${d.id} is at version ${d.version}: ${d.text.split('\n')[0]}`,
      );
    },
  });
}

/** `bbdc pr comment update <id> <comment> --body TEXT`. */
export const command = textUpdateCommand('comment', 'bbdc pr comment update 42 1234 --body "Fixed wording"');
