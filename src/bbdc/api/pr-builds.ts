import type { PrBuildStatusOutput } from '../../../generated/types/cli/output/pr-build-status.ts';
import type { RestBuildStatus } from './builds.ts';
import type { BitbucketClient } from './client.ts';
import type { Id } from './ids.ts';
import { collectPages } from './paging.ts';
import { segment } from './path.ts';
import { fetchPullRequest, type RepoRef } from './pull-requests.ts';
import { isoTime } from './timestamps.ts';

type BuildState = PrBuildStatusOutput['builds'][number]['state'];
const known: BuildState[] = ['SUCCESSFUL', 'FAILED', 'INPROGRESS', 'CANCELLED', 'UNKNOWN'];

/** Sums builds up: a failed or cancelled one fails the lot, else any in progress (or unknown) keeps it pending. */
export function aggregate(builds: { state: BuildState }[]): Pick<PrBuildStatusOutput, 'state' | 'summary'> {
  const summary = { successful: 0, failed: 0, inProgress: 0, total: builds.length };
  for (const b of builds) {
    if (b.state === 'SUCCESSFUL') summary.successful++;
    else if (b.state === 'FAILED' || b.state === 'CANCELLED') summary.failed++;
    else summary.inProgress++;
  }
  const state = summary.failed
    ? 'failed'
    : summary.inProgress
      ? 'pending'
      : summary.total
        ? 'successful'
        : 'none';
  return { state, summary };
}

/** The build statuses of a pull request's latest source commit, read afresh (a push changes the commit). */
export async function readPrBuilds(
  client: BitbucketClient,
  repo: RepoRef,
  id: Id,
): Promise<PrBuildStatusOutput> {
  const pr = await fetchPullRequest(client, repo, id);
  return readCommitBuilds(client, repo, id, pr.fromRef.latestCommit ?? '');
}

/** The build statuses of `commit`, the latest source commit of pull request `id`. */
export async function readCommitBuilds(
  client: BitbucketClient,
  repo: RepoRef,
  id: Id,
  commit: string,
): Promise<PrBuildStatusOutput> {
  const { values } = await collectPages<RestBuildStatus>(
    client,
    `/rest/build-status/latest/commits/${segment('source commit of the pull request', commit)}`,
    {},
    1000,
  );
  const builds = values
    .map((b) => {
      const updated = b.updatedDate ?? b.dateAdded;
      return {
        key: b.key,
        ...(b.name && { name: b.name }),
        state: known.includes(b.state as BuildState) ? (b.state as BuildState) : 'UNKNOWN',
        ...(b.url && { url: b.url }),
        ...(updated && { updatedDate: isoTime(updated, 'build status dateAdded') }),
      };
    })
    .sort((a, b) => a.key.localeCompare(b.key));
  return {
    pullRequest: id,
    repository: `${repo.project}/${repo.slug}`,
    commit,
    ...aggregate(builds),
    builds,
  };
}
