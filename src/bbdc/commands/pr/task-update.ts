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

type Options = { id: Id; task: Id; body: DescriptionSource };

async function prepare(o: Options, deps: CommandDeps) {
  const text = await readBody(o.body, deps);
  const intent = `bbdc pr task update ${o.id} ${o.task}`;
  return commentChange(
    deps,
    o.id,
    o.task,
    intent,
    (path, t) => ({
      // The version read just before: a task edited meanwhile is a conflict, never overwritten.
      request: { method: 'PUT', path, body: { version: t.version, text } },
      description: `edit task ${o.task} on pull request #${o.id}`,
      predicted: t.text === text ? 'no-op' : 'update',
      reasons: [`the task is at version ${t.version}`],
    }),
    'blocker-comments',
  );
}

/** `bbdc pr task update <id> <task> --body TEXT`: edits the text of a task (bb's `pr task update`). */
export const command = defineCommand<Options, PrCommentOutput>({
  name: 'pr task update',
  summary: 'Edit the text of a pull request task',
  args: [prIdArg, { name: 'task', required: true, description: 'Task id (see bbdc pr task list)' }],
  flags: bodyFlags,
  outputSchema: 'pr-comment',
  effect: 'mutating',
  examples: ['bbdc pr task update 42 1234 --body "Add a test for the empty list"'],
  parse: ({ args, flags }) => ({
    id: parsePrId(args[0]),
    task: parseCommentId(args[1], 'task'),
    body: bodySource(flags),
  }),
  plan: async (o, deps) => planOf((await prepare(o, deps)).change),
  async run(o, deps) {
    const { change, current } = await prepare(o, deps);
    const res = await apply<RestComment>(change);
    return toComment(res?.data ?? current);
  },
  human(d, ui) {
    ui.line(`Task #${d.id} is at version ${d.version}: ${d.text.split('\n')[0]}`);
  },
});
