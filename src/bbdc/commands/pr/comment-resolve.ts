import type { PrCommentOutput } from '../../../../generated/types/cli/output/pr-comment.ts';
import { type RestComment, toComment } from '../../api/comments.ts';
import type { Id } from '../../api/ids.ts';
import { parsePrId, prPath } from '../../api/pull-requests.ts';
import { defineCommand } from '../../command.ts';
import { makePlan } from '../../output/plan.ts';
import { parseCommentId } from './comment-body.ts';
import { prContext, prIdArg } from './pr-context.ts';

type Options = { id: Id; comment: Id; reopen: boolean };

/** `bbdc pr comment resolve <id> <comment>`: resolves (or with --reopen reopens) the thread a comment starts. */
export const command = defineCommand<Options, PrCommentOutput>({
  name: 'pr comment resolve',
  summary: 'Resolve a comment thread (or reopen it with --reopen)',
  args: [prIdArg, { name: 'comment', required: true, description: 'Id of the first comment of the thread' }],
  flags: { reopen: { type: 'boolean', description: 'Reopen a resolved thread instead' } },
  outputSchema: 'pr-comment',
  effect: 'mutating',
  examples: ['bbdc pr comment resolve 42 1234', 'bbdc pr comment resolve 42 1234 --reopen'],
  parse: ({ args, flags }) => ({
    id: parsePrId(args[0]),
    comment: parseCommentId(args[1], 'comment'),
    reopen: flags.reopen === true,
  }),
  async plan(o, deps) {
    const { repo, client } = await prContext(deps);
    const path = prPath(repo, o.id, `/comments/${o.comment}`);
    const c = await client.get<RestComment>(path);
    const done = (c.threadResolved === true) !== o.reopen;
    return makePlan({
      intent: `bbdc pr comment resolve ${o.id} ${o.comment}${o.reopen ? ' --reopen' : ''}`,
      target: {
        type: 'comment',
        id: `${repo.project}/${repo.slug}#${o.id}/${o.comment}`,
        host: repo.host.url,
      },
      action: {
        type: 'http',
        description: `${o.reopen ? 'reopen' : 'resolve'} the thread of comment ${o.comment}`,
        method: 'PUT',
        path,
        body: { version: c.version, threadResolved: !o.reopen },
      },
      predictedAction: done ? 'no-op' : 'update',
      reasons: [`the thread is ${c.threadResolved ? 'resolved' : 'open'}`],
      blockingReasons: [],
    });
  },
  async run(o, deps) {
    const { repo, client } = await prContext(deps);
    const path = prPath(repo, o.id, `/comments/${o.comment}`);
    const c = await client.get<RestComment>(path);
    if ((c.threadResolved === true) !== o.reopen) return toComment(c);
    const res = await client.request<RestComment>('PUT', path, {
      body: { version: c.version, threadResolved: !o.reopen },
    });
    return toComment(res.data);
  },
  human(d, ui) {
    ui.line(`The thread of comment #${d.id} is ${d.resolved ? 'resolved' : 'open'}`);
  },
});
