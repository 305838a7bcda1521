import type { PrCommentOutput } from '../../../../generated/types/cli/output/pr-comment.ts';
import { type RestComment, toComment } from '../../api/comments.ts';
import type { Id } from '../../api/ids.ts';
import { parsePrId, prPath } from '../../api/pull-requests.ts';
import { defineCommand } from '../../command.ts';
import { makePlan } from '../../output/plan.ts';
import { parseCommentId } from './comment-body.ts';
import { prContext, prIdArg } from './pr-context.ts';

type Options = { id: Id; task: Id; reopen: boolean };

/** `bbdc pr task resolve <id> <task>`: marks a task done (or open again with --reopen). */
export const command = defineCommand<Options, PrCommentOutput>({
  name: 'pr task resolve',
  summary: 'Resolve a task (or reopen it with --reopen)',
  args: [prIdArg, { name: 'task', required: true, description: 'Task id (see bbdc pr task list)' }],
  flags: { reopen: { type: 'boolean', description: 'Reopen a resolved task instead' } },
  outputSchema: 'pr-comment',
  effect: 'mutating',
  examples: ['bbdc pr task resolve 42 1234'],
  parse: ({ args, flags }) => ({
    id: parsePrId(args[0]),
    task: parseCommentId(args[1], 'task'),
    reopen: flags.reopen === true,
  }),
  async plan(o, deps) {
    const { repo, client } = await prContext(deps);
    const path = prPath(repo, o.id, `/blocker-comments/${o.task}`);
    const t = await client.get<RestComment>(path);
    const want = o.reopen ? 'OPEN' : 'RESOLVED';
    return makePlan({
      intent: `bbdc pr task resolve ${o.id} ${o.task}${o.reopen ? ' --reopen' : ''}`,
      target: { type: 'task', id: `${repo.project}/${repo.slug}#${o.id}/${o.task}`, host: repo.host.url },
      action: {
        type: 'http',
        description: `${o.reopen ? 'reopen' : 'resolve'} task ${o.task}`,
        method: 'PUT',
        path,
        body: { version: t.version, state: want },
      },
      predictedAction: t.state === want ? 'no-op' : 'update',
      reasons: [`the task is ${t.state === 'RESOLVED' ? 'resolved' : 'open'}`],
      blockingReasons: [],
    });
  },
  async run(o, deps) {
    const { repo, client } = await prContext(deps);
    const path = prPath(repo, o.id, `/blocker-comments/${o.task}`);
    const t = await client.get<RestComment>(path);
    const want = o.reopen ? 'OPEN' : 'RESOLVED';
    if (t.state === want) return toComment(t);
    const res = await client.request<RestComment>('PUT', path, { body: { version: t.version, state: want } });
    return toComment(res.data);
  },
  human(d, ui) {
    ui.line(`Task #${d.id} is ${d.state === 'RESOLVED' ? 'resolved' : 'open'}: ${d.text.split('\n')[0]}`);
  },
});
