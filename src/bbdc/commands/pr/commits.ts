import type { PrCommitsOutput } from '../../../../generated/types/cli/output/pr-commits.ts';
import type { Id } from '../../api/ids.ts';
import { collectPages } from '../../api/paging.ts';
import { parsePrId, prPath } from '../../api/pull-requests.ts';
import { isoTime } from '../../api/timestamps.ts';
import { defineCommand } from '../../command.ts';
import { shortDate } from '../../output/comment-thread.ts';
import { positiveInt } from '../repo/list.ts';
import { prContext, prIdArg } from './pr-context.ts';

type Options = { id: Id; limit: number };
type RestCommit = {
  id: string;
  displayId: string;
  message: string;
  author: { name: string; displayName?: string };
  authorTimestamp?: number;
};

/** `bbdc pr commits <id>`: the commits the pull request would merge, newest first. */
export const command = defineCommand<Options, PrCommitsOutput>({
  name: 'pr commits',
  summary: 'List the commits of a pull request',
  args: [prIdArg],
  flags: {
    limit: { type: 'string', shortFlag: 'L', value: 'N', description: 'Maximum number (default 100)' },
  },
  outputSchema: 'pr-commits',
  effect: 'safe',
  examples: ['bbdc pr commits 42'],
  parse: ({ args, flags }) => ({ id: parsePrId(args[0]), limit: positiveInt(flags.limit, '--limit', 100) }),
  async run(o, deps) {
    const { repo, client } = await prContext(deps);
    const { values, truncated } = await collectPages<RestCommit>(
      client,
      prPath(repo, o.id, '/commits'),
      {},
      o.limit,
    );
    const commits = values.map((c) => ({
      id: c.id,
      displayId: c.displayId,
      message: c.message,
      author: c.author.name,
      ...(c.authorTimestamp && { authorDate: isoTime(c.authorTimestamp, `commit ${c.id} authorTimestamp`) }),
    }));
    return {
      pullRequest: o.id,
      repository: `${repo.project}/${repo.slug}`,
      commits,
      count: commits.length,
      truncated,
    };
  },
  human(d, ui) {
    ui.table(
      ['commit', 'author', 'date', 'message'],
      d.commits.map((c) => [
        c.displayId,
        c.author,
        c.authorDate ? shortDate(c.authorDate) : '',
        c.message.split('\n')[0],
      ]),
    );
    if (d.truncated) ui.notice(`Showing the first ${d.count}; raise --limit for more.`);
  },
});
