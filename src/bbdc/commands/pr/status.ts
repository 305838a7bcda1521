import type { PrStatusItem, PrStatusOutput } from '../../../../generated/types/cli/output/pr-status.ts';
import { RealmforgeError, UsageError } from '../../../core/errors.ts';
import type { BitbucketClient } from '../../api/client.ts';
import { collectPages, type Page } from '../../api/paging.ts';
import { branchName, type RestParticipant, type RestPullRequest } from '../../api/pull-requests.ts';
import { repoPath } from '../../api/repositories.ts';
import { positiveInt } from '../../cli/paging-flags.ts';
import { type CommandDeps, defineCommand } from '../../command.ts';
import type { Ui } from '../../output/ui.ts';

type Stats = { successful: number; failed: number; inProgress: number; cancelled?: number; unknown?: number };
type Options = { limit: number };

const dashboard = (client: BitbucketClient, role: string, limit: number) =>
  collectPages<RestPullRequest>(
    client,
    '/rest/api/latest/dashboard/pull-requests',
    { role, state: 'OPEN' },
    limit,
  );

/**
 * The open pull request from the branch checked out here, as `gh pr status` shows it: the repository from -R, the
 * environment or git, the branch from git. Undefined outside a clone, on a detached HEAD, or for another server.
 */
async function currentBranchPullRequest(deps: CommandDeps, client: BitbucketClient) {
  const [head, repo] = await Promise.all([
    deps.git(['symbolic-ref', '--quiet', '--short', 'HEAD'], deps.cwd),
    deps.repo().catch((error) => {
      if (error instanceof UsageError) return undefined;
      throw error;
    }),
  ]);
  const branch = head.stdout.trim();
  if (head.code !== 0 || !branch || !repo || repo.host.url !== client.baseUrl) return undefined;
  const page = await client.get<Page<RestPullRequest>>(`${repoPath(repo.project, repo.slug)}/pull-requests`, {
    at: `refs/heads/${branch}`,
    direction: 'OUTGOING',
    state: 'OPEN',
    limit: 1,
  });
  return { repository: `${repo.project}/${repo.slug}`, branch, pr: page.values?.[0] };
}

function item(pr: RestPullRequest, stats: Stats | undefined, me: string): PrStatusItem {
  const reviewers: RestParticipant[] = pr.reviewers ?? [];
  const repo = pr.toRef.repository;
  const mine = reviewers.find((r) => r.user?.name === me);
  return {
    id: pr.id,
    repository: repo ? `${repo.project.key}/${repo.slug}` : '',
    title: pr.title,
    author: pr.author?.user?.name ?? '',
    from: branchName(pr.fromRef.id),
    to: branchName(pr.toRef.id),
    draft: pr.draft === true,
    approvals: reviewers.filter((r) => r.status === 'APPROVED').length,
    needsWork: reviewers.filter((r) => r.status === 'NEEDS_WORK').length,
    reviewers: reviewers.length,
    ...(mine && { myStatus: mine.status }),
    builds: {
      successful: stats?.successful ?? 0,
      failed: stats?.failed ?? 0,
      inProgress: stats?.inProgress ?? 0,
    },
  };
}

function buildWord(b: PrStatusItem['builds']): string {
  if (b.failed) return `${b.failed} failed`;
  if (b.inProgress) return `${b.inProgress} running`;
  if (b.successful) return `${b.successful} passed`;
  return 'no builds';
}

function section(title: string, items: PrStatusItem[], ui: Ui) {
  ui.line(ui.bold(title));
  if (!items.length) ui.line('  none');
  for (const p of items) {
    const review = p.needsWork ? `${p.needsWork} needs work` : `${p.approvals}/${p.reviewers} approved`;
    ui.line(`  #${p.id} ${p.title} [${p.repository} ${p.from} → ${p.to}]${p.draft ? ' (draft)' : ''}`);
    ui.line(`    ${ui.dim(`${review} · ${buildWord(p.builds)}`)}`);
  }
}

/** `bbdc pr status`: one screen with your open pull requests and those waiting for your review, with builds. */
export const command = defineCommand<Options, PrStatusOutput>({
  name: 'pr status',
  summary: 'Your open pull requests and those waiting for your review, with approvals and builds',
  description:
    'Reads your dashboard across repositories: two listings and one request for the build counts of every listed pull request. Inside a clone (or with -R) it also shows the open pull request from the branch checked out, as gh does.',
  args: [],
  flags: {
    limit: { type: 'string', shortFlag: 'L', value: 'N', description: 'Maximum per section (default 20)' },
  },
  outputSchema: 'pr-status',
  effect: 'safe',
  examples: ['bbdc pr status', 'bbdc pr status --json'],
  parse: ({ flags }) => ({ limit: positiveInt(flags.limit, '--limit', 20) }),
  async run(o, deps) {
    const client = await deps.client();
    // The three reads do not depend on each other: sent together, they cost one round trip, not three.
    const [authored, reviewing, current] = await Promise.all([
      dashboard(client, 'AUTHOR', o.limit),
      dashboard(client, 'REVIEWER', o.limit),
      currentBranchPullRequest(deps, client),
    ]);
    const me = client.username;
    if (!me)
      throw new RealmforgeError('auth', 'pr status needs to know who you are: log in with `bbdc auth login`');
    const waiting = reviewing.values.filter(
      (pr) => pr.reviewers?.find((r) => r.user?.name === me)?.status !== 'APPROVED',
    );
    const listed = [...authored.values, ...waiting, ...(current?.pr ? [current.pr] : [])];
    const commits = [...new Set(listed.map((pr) => pr.fromRef.latestCommit).filter(Boolean))];
    const stats = commits.length
      ? (
          await client.request<Record<string, Stats>>('POST', '/rest/build-status/latest/commits/stats', {
            body: commits,
          })
        ).data
      : {};
    const of = (pr: RestPullRequest) =>
      item(pr, pr.fromRef.latestCommit ? stats[pr.fromRef.latestCommit] : undefined, me);
    return {
      user: me,
      ...(current && {
        currentBranch: {
          repository: current.repository,
          branch: current.branch,
          ...(current.pr && { pullRequest: of(current.pr) }),
        },
      }),
      authored: authored.values.map(of),
      reviewing: waiting.map(of),
      truncated: authored.truncated || reviewing.truncated,
    };
  },
  human(d, ui) {
    if (d.currentBranch) {
      const { repository, branch, pullRequest } = d.currentBranch;
      section(`Current branch (${branch} in ${repository})`, pullRequest ? [pullRequest] : [], ui);
      ui.line();
    }
    section('Your pull requests', d.authored, ui);
    ui.line();
    section('Waiting for your review', d.reviewing, ui);
    if (d.truncated) ui.notice('Some sections were cut at --limit; raise it for more.');
  },
});
