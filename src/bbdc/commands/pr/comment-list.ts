import type { PrCommentListOutput } from '../../../../generated/types/cli/output/pr-comment-list.ts';
import { flatten, type RestActivity, threadsFromActivities } from '../../api/comments.ts';
import type { Id } from '../../api/ids.ts';
import { collectPages } from '../../api/paging.ts';
import { fetchPullRequest, parsePrId, prPath } from '../../api/pull-requests.ts';
import { defineCommand } from '../../command.ts';
import { printThread } from '../../output/comment-thread.ts';
import { prContext, prIdArg } from './pr-context.ts';

type Options = { id: Id; blocker: boolean; path?: string };

/** `bbdc pr comment list <id>`: every comment thread, built from the activities, with file and line anchors. */
export const command = defineCommand<Options, PrCommentListOutput>({
  name: 'pr comment list',
  summary: 'List the comment threads of a pull request, replies nested',
  description:
    'Threads come from the activities (the aggregate view: general and inline comments in one list), oldest first. --blocker keeps threads with a task; --path keeps threads on a file or directory.',
  args: [prIdArg],
  flags: {
    blocker: { type: 'boolean', description: 'Only threads that hold a task (blocker comment)' },
    path: {
      type: 'string',
      value: 'PATH',
      description: 'Only threads on this file (or under this directory)',
    },
  },
  outputSchema: 'pr-comment-list',
  effect: 'safe',
  examples: ['bbdc pr comment list 42', 'bbdc pr comment list 42 --path src/ --json'],
  parse: ({ args, flags }) => ({
    id: parsePrId(args[0]),
    blocker: flags.blocker === true,
    path: (flags.path as string | undefined)?.replace(/^\/+/, ''),
  }),
  async run(o, deps) {
    const { repo, client } = await prContext(deps);
    await fetchPullRequest(client, repo, o.id);
    const { values } = await collectPages<RestActivity>(
      client,
      prPath(repo, o.id, '/activities'),
      {},
      undefined,
    );
    const dir = o.path?.replace(/\/?$/, '/');
    const threads = threadsFromActivities(values)
      .filter((t) => !o.blocker || flatten(t).some((c) => c.severity === 'BLOCKER'))
      .filter((t) => !o.path || t.anchor?.path === o.path || t.anchor?.path.startsWith(dir!));
    return {
      pullRequest: o.id,
      repository: `${repo.project}/${repo.slug}`,
      threads,
      count: threads.reduce((n, t) => n + flatten(t).length, 0),
    };
  },
  human(d, ui) {
    if (!d.threads.length) {
      ui.notice(`No comments on pull request #${d.pullRequest} match.`);
      return;
    }
    d.threads.forEach((t, i) => {
      if (i) ui.line();
      printThread(t, ui);
    });
  },
});
