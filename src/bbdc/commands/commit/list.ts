import type { CommitListOutput } from '../../../../generated/types/cli/output/commit-list.ts';
import { type RestCommit, subject, toCommit } from '../../api/commits.ts';
import { collectPages } from '../../api/paging.ts';
import { repoPath } from '../../api/repositories.ts';
import { pagingFlags, parsePaging } from '../../cli/paging-flags.ts';
import { defineCommand } from '../../command.ts';
import type { Ui } from '../../output/ui.ts';

type Options = {
  limit: number;
  start: number;
  path?: string;
  since?: string;
  until?: string;
  merges?: string;
};

/** Prints commits as a table: short id, author, date, subject. */
export function printCommits(commits: CommitListOutput['commits'], ui: Ui): void {
  ui.table(
    ['commit', 'author', 'date', 'subject'],
    commits.map((c) => [c.displayId, c.author.name, c.authoredAt.slice(0, 10), subject(c.message)]),
  );
}

/** `bbdc commit list`: history newest first, filtered by path, a range of refs and merge commits. */
export const command = defineCommand<Options, CommitListOutput>({
  name: 'commit list',
  summary: 'List commits, newest first',
  description:
    '--since and --until take commit ids or refs, as Bitbucket does: commits reachable from --until (default: the default branch) and not from --since.',
  args: [],
  flags: {
    ...pagingFlags('commits', 50),
    path: { type: 'string', value: 'PATH', description: 'Only commits that touch this file or directory' },
    since: {
      type: 'string',
      value: 'REF',
      description: 'Exclude this commit or ref and everything before it',
    },
    until: {
      type: 'string',
      value: 'REF',
      description: 'Start from this commit or ref (default: the default branch)',
    },
    merges: {
      type: 'string',
      value: 'MODE',
      choices: ['include', 'exclude', 'only'],
      description: 'include (default), exclude or only merge commits',
    },
  },
  outputSchema: 'commit-list',
  effect: 'safe',
  examples: [
    'bbdc commit list -R PROJ/api --until feature/login --since main',
    'bbdc commit list --path src/ --merges exclude --limit 20',
  ],
  parse: ({ flags }) => ({
    ...parsePaging(flags, 50),
    path: flags.path as string | undefined,
    since: flags.since as string | undefined,
    until: flags.until as string | undefined,
    merges: flags.merges as string | undefined,
  }),
  async run(o, deps) {
    const repo = await deps.repo();
    const client = await deps.client(repo.host);
    const { values, truncated } = await collectPages<RestCommit>(
      client,
      `${repoPath(repo.project, repo.slug)}/commits`,
      { path: o.path, since: o.since, until: o.until, merges: o.merges },
      o.limit,
      o.start,
    );
    const commits = values.map(toCommit);
    return { repository: `${repo.project}/${repo.slug}`, commits, count: commits.length, truncated };
  },
  human(d, ui) {
    if (!d.commits.length) ui.notice('No commits match.');
    printCommits(d.commits, ui);
    if (d.truncated) ui.notice(`Showing the first ${d.count}; raise --limit for more.`);
  },
});
