import type { PrTaskDeleteOutput } from '../../../../generated/types/cli/output/pr-task-delete.ts';
import type { RestComment } from '../../api/comments.ts';
import type { Id } from '../../api/ids.ts';
import { parsePrId, prPath } from '../../api/pull-requests.ts';
import { defineCommand } from '../../command.ts';
import { makePlan } from '../../output/plan.ts';
import { parseCommentId } from './comment-body.ts';
import { prContext, prIdArg } from './pr-context.ts';

type Options = { id: Id; task: Id };

/** `bbdc pr task delete <id> <task>`: deletes a task at the version just read. */
export const command = defineCommand<Options, PrTaskDeleteOutput>({
  name: 'pr task delete',
  summary: 'Delete a task',
  args: [prIdArg, { name: 'task', required: true, description: 'Task id (see bbdc pr task list)' }],
  flags: {},
  outputSchema: 'pr-task-delete',
  effect: 'mutating',
  examples: ['bbdc pr task delete 42 1234'],
  parse: ({ args }) => ({ id: parsePrId(args[0]), task: parseCommentId(args[1], 'task') }),
  async plan(o, deps) {
    const { repo, client } = await prContext(deps);
    const path = prPath(repo, o.id, `/blocker-comments/${o.task}`);
    const t = await client.get<RestComment>(path);
    return makePlan({
      intent: `bbdc pr task delete ${o.id} ${o.task}`,
      target: { type: 'task', id: `${repo.project}/${repo.slug}#${o.id}/${o.task}`, host: repo.host.url },
      action: {
        type: 'http',
        description: `delete task ${o.task} "${t.text.split('\n')[0]}"`,
        method: 'DELETE',
        path: `${path}?version=${t.version}`,
      },
      predictedAction: 'delete',
      reasons: [],
      blockingReasons: (t.comments ?? []).length ? [`task ${o.task} has replies`] : [],
    });
  },
  async run(o, deps) {
    const { repo, client } = await prContext(deps);
    const path = prPath(repo, o.id, `/blocker-comments/${o.task}`);
    const t = await client.get<RestComment>(path);
    await client.request('DELETE', path, { query: { version: t.version } });
    return {
      pullRequest: o.id,
      repository: `${repo.project}/${repo.slug}`,
      task: o.task,
      deleted: true as const,
    };
  },
  human(d, ui) {
    ui.line(`Deleted task #${d.task} of pull request #${d.pullRequest}`);
  },
});
