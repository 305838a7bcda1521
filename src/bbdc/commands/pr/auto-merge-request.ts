import type { PrAutoMergeOutput } from '../../../../generated/types/cli/output/pr-auto-merge.ts';
import type { BitbucketClient } from '../../api/client.ts';
import { statusOf } from '../../api/errors.ts';
import type { Id } from '../../api/ids.ts';
import { prPath, type RepoRef } from '../../api/pull-requests.ts';
import { isoTime } from '../../api/timestamps.ts';
import type { Ui } from '../../output/ui.ts';

/** GET .../auto-merge as Bitbucket returns it. */
export type RestAutoMergeRequest = {
  strategyId?: string;
  createdDate?: number;
  fromHash?: string;
  toRefId?: string;
};

/** The pull request's auto-merge request, or undefined when the server answers 404 (none). */
export async function readAutoMerge(client: BitbucketClient, repo: RepoRef, id: Id) {
  try {
    return await client.get<RestAutoMergeRequest>(prPath(repo, id, '/auto-merge'));
  } catch (error) {
    if (statusOf(error) === 404) return undefined;
    throw error;
  }
}

/** The printed shape of an auto-merge request. */
export function toAutoMerge(repo: RepoRef, id: Id, r: RestAutoMergeRequest | undefined): PrAutoMergeOutput {
  return {
    pullRequest: id,
    repository: `${repo.project}/${repo.slug}`,
    enabled: r !== undefined,
    ...(r?.strategyId && { strategy: r.strategyId }),
    ...(r?.createdDate && { requestedDate: isoTime(r.createdDate, 'auto-merge createdDate') }),
  };
}

/** One line for people: on (with strategy), off, or merged at once. */
export function printAutoMerge(d: PrAutoMergeOutput, ui: Ui): void {
  if (d.outcome === 'MERGED') ui.line(`Pull request #${d.pullRequest} could merge at once and was merged.`);
  else if (d.enabled)
    ui.line(
      `Auto-merge is on for pull request #${d.pullRequest}${d.strategy ? ` (${d.strategy})` : ''}: it merges when its merge checks pass.`,
    );
  else ui.line(`Auto-merge is off for pull request #${d.pullRequest}.`);
}
