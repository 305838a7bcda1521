import type { PrTaskListOutput } from '../../../../generated/types/cli/output/pr-task-list.ts';
import { type RestComment, toComment } from '../../api/comments.ts';
import type { Id } from '../../api/ids.ts';
import { collectPages } from '../../api/paging.ts';
import { parsePrId, prPath } from '../../api/pull-requests.ts';
import { defineCommand } from '../../command.ts';
import { shortDate } from '../../output/comment-thread.ts';
import { prContext, prIdArg } from './pr-context.ts';

type Options = { id: Id; state: 'open' | 'resolved' | 'all' };

/** `bbdc pr task list <id>`: the tasks (blocker comments) of a pull request. */
export const command = defineCommand<Options, PrTaskListOutput>({
  name: 'pr task list',
  summary: 'List the tasks of a pull request',
  args: [prIdArg],
  flags: {
    state: {
      type: 'string',
      value: 'STATE',
      choices: ['open', 'resolved', 'all'],
      description: 'open, resolved or all (default)',
    },
  },
  outputSchema: 'pr-task-list',
  effect: 'safe',
  examples: ['bbdc pr task list 42 --state open'],
  parse: ({ args, flags }) => ({ id: parsePrId(args[0]), state: (flags.state as Options['state']) ?? 'all' }),
  async run(o, deps) {
    const { repo, client } = await prContext(deps);
    const { values } = await collectPages<RestComment>(
      client,
      prPath(repo, o.id, '/blocker-comments'),
      { state: o.state === 'all' ? undefined : o.state.toUpperCase() },
      undefined,
    );
    const tasks = values.map((c) => toComment(c));
    return {
      pullRequest: o.id,
      repository: `${repo.project}/${repo.slug}`,
      tasks,
      open: tasks.filter((t) => t.state !== 'RESOLVED').length,
      resolved: tasks.filter((t) => t.state === 'RESOLVED').length,
    };
  },
  human(d, ui) {
    if (!d.tasks.length) {
      ui.notice(`Pull request #${d.pullRequest} has no tasks.`);
      return;
    }
    ui.table(
      ['id', 'state', 'author', 'created', 'task'],
      d.tasks.map((t) => [
        `#${t.id}`,
        t.state === 'RESOLVED' ? 'resolved' : 'open',
        t.author?.name ?? '',
        shortDate(t.createdDate),
        t.text.split('\n')[0],
      ]),
    );
    ui.notice(`${d.open} open, ${d.resolved} resolved`);
  },
});
