import type { Mergeability, PrOutput, PrReviewer } from '../../../generated/types/cli/output/pr.ts';
import type { Ui } from './ui.ts';

const statusWords: Record<PrReviewer['status'], string> = {
  APPROVED: 'approved',
  NEEDS_WORK: 'needs work',
  UNAPPROVED: 'not yet reviewed',
};

/** A reviewer's status in words. */
export function reviewStatus(status: PrReviewer['status']): string {
  return statusWords[status];
}

/** One line on whether a pull request can merge: yes, no with the reason, or unknown with why. */
export function mergeabilityLine(m: Mergeability): string {
  if (!m.known) return `unknown (${m.reason ?? 'the server did not say'})`;
  if (m.mergeable) return 'yes';
  const why = m.conflicted
    ? 'conflicts with the target branch'
    : `${m.blockers.length} merge check(s) failed`;
  return `no: ${why}`;
}

/** Prints a mergeability block: the verdict line and one line per blocker. */
export function printMergeability(m: Mergeability, ui: Ui): void {
  ui.line(`Mergeable: ${mergeabilityLine(m)}`);
  for (const b of m.blockers) ui.line(`  blocked: ${b.summary}${b.detail ? `: ${b.detail}` : ''}`);
}

/** The state with `draft` added, e.g. `OPEN (draft)`. */
export function stateLabel(pr: Pick<PrOutput, 'state' | 'draft'>): string {
  return pr.draft && pr.state === 'OPEN' ? 'OPEN (draft)' : pr.state;
}

/** Prints a pull request for a person: title, state and branches, reviewers, mergeability, link, description. */
export function printPullRequest(pr: PrOutput, ui: Ui): void {
  ui.line(ui.bold(`#${pr.id} ${pr.title}`));
  ui.line(
    `${stateLabel(pr)} · ${pr.author?.name ?? 'unknown author'} wants to merge ${pr.from.branch} into ${pr.to.branch} · ${pr.repository} · version ${pr.version}`,
  );
  const reviewers = pr.reviewers.map((r) => `${r.name} (${reviewStatus(r.status)})`);
  ui.line(`Reviewers: ${reviewers.length ? reviewers.join(', ') : 'none'}`);
  if (pr.mergeability) printMergeability(pr.mergeability, ui);
  if (pr.url) ui.line(ui.dim(pr.url));
  if (pr.description.trim()) {
    ui.line();
    for (const line of pr.description.trimEnd().split('\n')) ui.line(`  ${line}`);
  }
}
