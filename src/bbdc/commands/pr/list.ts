import type { PrListOutput } from '../../../../generated/types/cli/output/pr-list.ts';
import { RealmforgeError } from '../../../core/errors.ts';
import { collectMatching } from '../../api/filtered-pages.ts';
import { type RestPullRequest, toPullRequest } from '../../api/pull-requests.ts';
import { repoPath } from '../../api/repositories.ts';
import { defineCommand } from '../../command.ts';
import { stateLabel } from '../../output/pull-request.ts';
import { positiveInt } from '../repo/list.ts';

type Role = 'author' | 'reviewer' | 'participant';
type Options = {
  state: 'open' | 'merged' | 'declined' | 'all';
  role?: Role;
  source?: string;
  target?: string;
  mine: boolean;
  limit: number;
};

const refId = (branch: string) => (branch.startsWith('refs/') ? branch : `refs/heads/${branch}`);

function matches(o: Options, me: () => string | undefined) {
  return (pr: RestPullRequest) => {
    if (o.source && pr.fromRef.id !== refId(o.source)) return false;
    if (o.target && pr.toRef.id !== refId(o.target)) return false;
    if (!o.role || o.mine) return true;
    const name = me();
    const people = [pr.author, ...(pr.reviewers ?? []), ...(pr.participants ?? [])];
    return people.some((p) => p?.user?.name === name && p?.role === o.role!.toUpperCase());
  };
}

/** `bbdc pr list`: the repository's pull requests, or with --mine your dashboard across repositories. */
export const command = defineCommand<Options, PrListOutput>({
  name: 'pr list',
  summary: 'List pull requests of a repository, or yours across repositories with --mine',
  description:
    '--role keeps the pull requests where you have that role. --mine reads your dashboard (every repository) instead of one repository.',
  args: [],
  flags: {
    state: {
      type: 'string',
      shortFlag: 's',
      value: 'STATE',
      choices: ['open', 'merged', 'declined', 'all'],
      description: 'open (default), merged, declined or all',
    },
    role: {
      type: 'string',
      value: 'ROLE',
      choices: ['author', 'reviewer', 'participant'],
      description: 'Only pull requests where you are the author, a reviewer or a participant',
    },
    source: { type: 'string', value: 'BRANCH', description: 'Only pull requests from this branch' },
    target: { type: 'string', value: 'BRANCH', description: 'Only pull requests into this branch' },
    mine: { type: 'boolean', description: 'Your pull requests on every repository (the dashboard)' },
    limit: { type: 'string', shortFlag: 'L', value: 'N', description: 'Maximum number (default 30)' },
  },
  outputSchema: 'pr-list',
  effect: 'safe',
  examples: ['bbdc pr list', 'bbdc pr list --state all --target main', 'bbdc pr list --mine --role reviewer'],
  parse: ({ flags }) => ({
    state: (flags.state as Options['state']) ?? 'open',
    role: flags.role as Role | undefined,
    source: flags.source as string | undefined,
    target: flags.target as string | undefined,
    mine: flags.mine === true,
    limit: positiveInt(flags.limit, '--limit', 30),
  }),
  async run(o, deps) {
    const state = o.state === 'all' ? undefined : o.state.toUpperCase();
    if (o.mine) {
      const client = await deps.client();
      const { values, truncated } = await collectMatching<RestPullRequest>(
        client,
        '/rest/api/latest/dashboard/pull-requests',
        { state, role: o.role?.toUpperCase() },
        o.limit,
        matches(o, () => client.username),
      );
      const prs = values.map((pr) => toPullRequest(pr, { project: '', slug: '' }));
      return { pullRequests: prs, count: prs.length, truncated };
    }
    const repo = await deps.repo();
    const client = await deps.client(repo.host);
    const [at, direction] = o.target
      ? [refId(o.target), 'INCOMING']
      : o.source
        ? [refId(o.source), 'OUTGOING']
        : [undefined, undefined];
    const { values, truncated } = await collectMatching<RestPullRequest>(
      client,
      `${repoPath(repo.project, repo.slug)}/pull-requests`,
      { state: state ?? 'ALL', at, direction },
      o.limit,
      matches(o, () => {
        if (!client.username)
          throw new RealmforgeError(
            'auth',
            '--role needs to know who you are: log in with `bbdc auth login`',
          );
        return client.username;
      }),
    );
    const prs = values.map((pr) => toPullRequest(pr, repo));
    return { pullRequests: prs, count: prs.length, truncated };
  },
  human(d, ui) {
    if (!d.pullRequests.length) {
      ui.notice('No pull requests match.');
      return;
    }
    const many = new Set(d.pullRequests.map((p) => p.repository)).size > 1;
    ui.table(
      ['#', ...(many ? ['repository'] : []), 'title', 'author', 'branches', 'state', 'approvals'],
      d.pullRequests.map((p) => [
        `#${p.id}`,
        ...(many ? [p.repository] : []),
        p.title,
        p.author?.name ?? '',
        `${p.from.branch} → ${p.to.branch}`,
        stateLabel(p),
        `${p.reviewers.filter((r) => r.status === 'APPROVED').length}/${p.reviewers.length}`,
      ]),
    );
    if (d.truncated) ui.notice(`Showing the first ${d.count}; raise --limit for more.`);
  },
});
