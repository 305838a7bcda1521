import type { PrActivityListOutput } from '../../../../generated/types/cli/output/pr-activity-list.ts';
import type { RestActivity } from '../../api/comments.ts';
import type { Id } from '../../api/ids.ts';
import { collectPages } from '../../api/paging.ts';
import { parsePrId, prPath, type RestUser } from '../../api/pull-requests.ts';
import { utcIso } from '../../api/timestamps.ts';
import { positiveInt } from '../../cli/paging-flags.ts';
import { defineCommand } from '../../command.ts';
import { shortDate } from '../../output/comment-thread.ts';
import { prContext, prIdArg } from './pr-context.ts';

type Options = { id: Id; limit: number };
type Activity = RestActivity & { createdDate: number; user: RestUser };

function detail(a: Activity): string {
  if (a.comment)
    return `${a.commentAction?.toLowerCase() ?? 'commented'} #${a.comment.id}: ${a.comment.text.split('\n')[0]}`;
  return '';
}

/** `bbdc pr activity list <id>`: what happened on a pull request, newest first (comments, reviews, updates). */
export const command = defineCommand<Options, PrActivityListOutput>({
  name: 'pr activity list',
  summary: 'Follow what happened on a pull request, newest first',
  args: [prIdArg],
  flags: {
    limit: {
      type: 'string',
      shortFlag: 'L',
      value: 'N',
      description: 'Maximum number in total (default 50)',
    },
  },
  outputSchema: 'pr-activity-list',
  effect: 'safe',
  examples: ['bbdc pr activity list 42', 'bbdc pr activity list 42 --limit 200 --json'],
  parse: ({ args, flags }) => ({ id: parsePrId(args[0]), limit: positiveInt(flags.limit, '--limit', 50) }),
  async run(o, deps) {
    const { repo, client } = await prContext(deps);
    const { values, truncated } = await collectPages<Activity>(
      client,
      prPath(repo, o.id, '/activities'),
      {},
      o.limit,
    );
    const activities = values.map((a) => ({
      id: a.id,
      action: a.action,
      createdDate: utcIso(a.createdDate),
      user: { name: a.user.name, ...(a.user.displayName && { displayName: a.user.displayName }) },
      ...(a.commentAction && { commentAction: a.commentAction }),
      ...(a.comment && { comment: { id: a.comment.id, text: a.comment.text } }),
    }));
    return {
      pullRequest: o.id,
      repository: `${repo.project}/${repo.slug}`,
      activities,
      count: activities.length,
      truncated,
    };
  },
  human(d, ui) {
    if (!d.activities.length) {
      ui.notice(`Pull request #${d.pullRequest} has no activity.`);
      return;
    }
    ui.table(
      ['date', 'user', 'action', 'detail'],
      d.activities.map((a) => [
        shortDate(a.createdDate),
        a.user.name,
        a.action.toLowerCase().replace(/_/g, ' '),
        detail({ ...a, createdDate: 0, user: a.user } as unknown as Activity),
      ]),
    );
    if (d.truncated) ui.notice(`Showing the newest ${d.count}; raise --limit for more.`);
  },
});
