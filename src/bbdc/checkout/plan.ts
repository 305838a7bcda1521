// `pr checkout` as data: which remote to fetch from, what to fetch, the local branch and its upstream. Pure.
import type { RestPullRequest } from '../api/pull-requests.ts';
import { branchName } from '../api/pull-requests.ts';

/** The local clone's remote for the pull request's repository. */
export type CheckoutRemote = { name: string; url: string };

/** The git steps of a checkout, in order; `upstream` is what `git pull` will use afterwards. */
export type CheckoutPlan = {
  branch: string;
  fetch: { remote: string; refspec: string };
  /** The local ref the fetched commit lands in (a remote-tracking ref, or the pull request's own ref). */
  fetched: string;
  upstream: { remote: string; merge: string };
  fork: boolean;
};

const sameRepo = (pr: RestPullRequest) => {
  const from = pr.fromRef.repository;
  const to = pr.toRef.repository;
  return (
    !from || !to || (from.project.key.toUpperCase() === to.project.key.toUpperCase() && from.slug === to.slug)
  );
};

/**
 * Same-repository pull requests fetch the source branch into `<remote>/<branch>` and track it. A fork's pull request
 * is fetched through `refs/pull-requests/<id>/from` (Bitbucket publishes it on the target repository), and the
 * branch's upstream is the fork's clone URL, so `git pull` follows the author's branch.
 */
export function checkoutPlan(
  pr: RestPullRequest,
  remote: CheckoutRemote,
  options: { branch?: string; forkUrl?: string },
): CheckoutPlan {
  const source = branchName(pr.fromRef.id);
  if (sameRepo(pr)) {
    return {
      branch: options.branch ?? source,
      fetch: { remote: remote.name, refspec: `+${pr.fromRef.id}:refs/remotes/${remote.name}/${source}` },
      fetched: `refs/remotes/${remote.name}/${source}`,
      upstream: { remote: remote.name, merge: pr.fromRef.id },
      fork: false,
    };
  }
  return {
    branch: options.branch ?? `pr/${pr.id}`,
    fetch: {
      remote: remote.name,
      refspec: `+refs/pull-requests/${pr.id}/from:refs/pull-requests/${pr.id}/from`,
    },
    fetched: `refs/pull-requests/${pr.id}/from`,
    upstream: { remote: options.forkUrl ?? remote.name, merge: pr.fromRef.id },
    fork: true,
  };
}
