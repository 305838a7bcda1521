import type { SearchPrsOutput } from '../../../../generated/types/cli/output/search-prs.ts';
import { collectMatching } from '../../api/filtered-pages.ts';
import { type RestPullRequest, toPullRequest } from '../../api/pull-requests.ts';
import { repoPath } from '../../api/repositories.ts';
import { limitFlag } from '../../cli/paging-flags.ts';
import { defineCommand } from '../../command.ts';
import { stateLabel } from '../../output/pull-request.ts';
import { positiveInt } from '../repo/list.ts';

type Options = {
  query?: string;
  state: 'open' | 'merged' | 'declined' | 'all';
  author?: string;
  target?: string;
  draft?: boolean;
  limit: number;
};

const refId = (branch: string) => (branch.startsWith('refs/') ? branch : `refs/heads/${branch}`);

/** `bbdc search prs [text]`: pull requests of a repository whose title or description contains the text. */
export const command = defineCommand<Options, SearchPrsOutput>({
  name: 'search prs',
  summary: 'Find pull requests by title or description (not code search)',
  description:
    "Uses the repository's pull request list with its text filter (filterText), state, target branch and draft filters; --author is matched on the answers. This is not code search: diffs and comments are not searched.",
  args: [
    { name: 'text', required: false, description: 'Text in the title or description, case-insensitive' },
  ],
  flags: {
    state: {
      type: 'string',
      shortFlag: 's',
      value: 'STATE',
      choices: ['open', 'merged', 'declined', 'all'],
      description: 'open, merged, declined or all (default all)',
    },
    author: { type: 'string', value: 'USER', description: 'Only pull requests by this user name' },
    target: { type: 'string', value: 'BRANCH', description: 'Only pull requests into this branch' },
    draft: {
      type: 'string',
      value: 'true|false',
      choices: ['true', 'false'],
      description: 'Only drafts, or no drafts',
    },
    limit: limitFlag('results', 30),
  },
  outputSchema: 'search-prs',
  effect: 'safe',
  examples: ['bbdc search prs login -R PROJ/api', 'bbdc search prs --author bob --state merged --json'],
  parse: ({ args, flags }) => ({
    query: args[0]?.trim() || undefined,
    state: (flags.state as Options['state']) ?? 'all',
    author: flags.author as string | undefined,
    target: flags.target as string | undefined,
    draft: flags.draft === undefined ? undefined : flags.draft === 'true',
    limit: positiveInt(flags.limit, '--limit', 30),
  }),
  async run(o, deps) {
    const repo = await deps.repo();
    const client = await deps.client(repo.host);
    const text = o.query?.toLowerCase();
    // filterText and draft are applied by the server; checking them again keeps older servers' answers right.
    const keep = (pr: RestPullRequest) =>
      (!text || `${pr.title}\n${pr.description ?? ''}`.toLowerCase().includes(text)) &&
      (!o.author || pr.author?.user?.name?.toLowerCase() === o.author.toLowerCase()) &&
      (!o.target || pr.toRef.id === refId(o.target)) &&
      (o.draft === undefined || (pr.draft === true) === o.draft);
    const { values, truncated } = await collectMatching<RestPullRequest>(
      client,
      `${repoPath(repo.project, repo.slug)}/pull-requests`,
      {
        filterText: o.query,
        state: o.state.toUpperCase(),
        at: o.target ? refId(o.target) : undefined,
        direction: o.target ? 'INCOMING' : undefined,
        draft: o.draft,
      },
      o.limit,
      keep,
    );
    const pullRequests = values.map((pr) => toPullRequest(pr, repo));
    return {
      repository: `${repo.project}/${repo.slug}`,
      ...(o.query && { query: o.query }),
      pullRequests,
      count: pullRequests.length,
      truncated,
    };
  },
  human(d, ui) {
    if (d.count === 0) {
      ui.notice(`No pull requests in ${d.repository} match${d.query ? ` "${d.query}"` : ''}.`);
      return;
    }
    ui.table(
      ['#', 'title', 'author', 'branches', 'state'],
      d.pullRequests.map((p) => [
        `#${p.id}`,
        p.title,
        p.author?.name ?? '',
        `${p.from.branch} → ${p.to.branch}`,
        stateLabel(p),
      ]),
    );
    if (d.truncated) ui.notice(`Showing the first ${d.count}; raise --limit for more.`);
  },
});
