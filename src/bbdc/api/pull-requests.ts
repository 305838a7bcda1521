import type { Mergeability, PrOutput, PrReviewer } from '../../../generated/types/cli/output/pr.ts';
import type { BitbucketClient } from './client.ts';
import { statusOf } from './errors.ts';
import { type Id, parseId } from './ids.ts';
import { repoPath } from './repositories.ts';
import { isoTime } from './timestamps.ts';

/** A user as Bitbucket embeds it in pull requests and comments. */
export type RestUser = { name: string; slug?: string; displayName?: string; emailAddress?: string };
/** A pull request participant. */
export type RestParticipant = {
  /** Optional in the 9.4 document, like every field of these shapes: readers must not assume it. */
  user?: RestUser;
  role: 'AUTHOR' | 'REVIEWER' | 'PARTICIPANT';
  status: 'APPROVED' | 'NEEDS_WORK' | 'UNAPPROVED';
  approved?: boolean;
};
/** A pull request's source or target. */
export type RestPrRef = {
  id: string;
  displayId: string;
  latestCommit?: string;
  repository?: { slug: string; project: { key: string } };
};
/** A pull request as GET .../pull-requests/{id} returns it (the fields bbdc reads). */
export type RestPullRequest = {
  id: Id;
  version: number;
  title: string;
  description?: string;
  state: 'OPEN' | 'MERGED' | 'DECLINED';
  draft?: boolean;
  createdDate: number;
  updatedDate: number;
  closedDate?: number;
  fromRef: RestPrRef;
  toRef: RestPrRef;
  author?: RestParticipant;
  reviewers?: RestParticipant[];
  participants?: RestParticipant[];
  links?: { self?: { href: string }[] };
};
/** GET .../merge: whether the pull request can merge now. */
export type RestMergeability = {
  canMerge: boolean;
  conflicted: boolean;
  outcome?: 'CLEAN' | 'CONFLICTED' | 'UNKNOWN';
  vetoes?: { summaryMessage?: string; detailedMessage?: string }[];
};

/** The repository a pull request lives in. */
export type RepoRef = { project: string; slug: string };

/** The REST path of a pull request, or of something under it (`suffix` starts with `/`). */
export function prPath(repo: RepoRef, id: Id, suffix = ''): string {
  return `${repoPath(repo.project, repo.slug)}/pull-requests/${id}${suffix}`;
}

/** Parses a pull request id argument, naming it when it is not a positive whole number. */
export function parsePrId(value: string | undefined): Id {
  return parseId('pull request id', value, 'int64', 'run `bbdc pr list` to see the ids');
}

/** A branch name from a ref id (`refs/heads/x` -> `x`); other refs keep their full id. */
export function branchName(refId: string): string {
  return refId.replace(/^refs\/heads\//, '');
}

const iso = (ms: number | undefined, field = 'pull request date') => isoTime(ms, field);

/** The printed user, or undefined when the server named nobody. */
export function userOf(u: RestUser | undefined): { name: string; displayName?: string } | undefined {
  if (typeof u?.name !== 'string') return undefined;
  return { name: u.name, ...(u.displayName && { displayName: u.displayName }) };
}

function person(p: RestParticipant & { user: RestUser }): PrReviewer {
  return {
    ...userOf(p.user)!,
    role: p.role,
    status: p.status ?? (p.approved ? 'APPROVED' : 'UNAPPROVED'),
  };
}

function refOf(r: RestPrRef) {
  return {
    branch: r.displayId ?? branchName(r.id),
    ...(r.latestCommit && { commit: r.latestCommit }),
    ...(r.repository && { repository: `${r.repository.project.key}/${r.repository.slug}` }),
  };
}

const named = (list: RestParticipant[] | undefined) =>
  (list ?? []).filter((p): p is RestParticipant & { user: RestUser } => userOf(p.user) !== undefined);

/** The pull request shape bbdc prints, from the REST shape. */
export function toPullRequest(pr: RestPullRequest, repo: RepoRef): PrOutput {
  const repository = pr.toRef.repository
    ? `${pr.toRef.repository.project.key}/${pr.toRef.repository.slug}`
    : `${repo.project}/${repo.slug}`;
  const out: PrOutput = {
    id: pr.id,
    repository,
    title: pr.title,
    description: pr.description ?? '',
    state: pr.state,
    draft: pr.draft === true,
    version: pr.version,
    ...(userOf(pr.author?.user) && { author: userOf(pr.author?.user) }),
    from: refOf(pr.fromRef),
    to: refOf(pr.toRef),
    reviewers: named(pr.reviewers).map(person),
    participants: named(pr.participants).map(person),
    createdDate: iso(pr.createdDate, `pull request ${pr.id} createdDate`)!,
    updatedDate: iso(pr.updatedDate, `pull request ${pr.id} updatedDate`)!,
  };
  if (pr.closedDate) out.closedDate = iso(pr.closedDate, `pull request ${pr.id} closedDate`);
  if (pr.links?.self?.[0]) out.url = pr.links.self[0].href;
  return out;
}

/** Reads one pull request; a 404 keeps Bitbucket's message (not_found, exit 4). */
export function fetchPullRequest(client: BitbucketClient, repo: RepoRef, id: Id) {
  return client.get<RestPullRequest>(prPath(repo, id));
}

/** Asks the server whether a pull request can merge; a 404 or 409 answer is reported as unknown, not thrown. */
export async function readMergeability(
  client: BitbucketClient,
  repo: RepoRef,
  id: Id,
): Promise<Mergeability> {
  try {
    const m = await client.get<RestMergeability>(prPath(repo, id, '/merge'));
    const blockers = (m.vetoes ?? []).map((v) => ({
      summary: v.summaryMessage ?? 'merge check failed',
      ...(v.detailedMessage && { detail: v.detailedMessage }),
    }));
    return {
      known: true,
      mergeable: m.canMerge === true,
      outcome: m.outcome ?? (m.conflicted ? 'CONFLICTED' : 'CLEAN'),
      conflicted: m.conflicted === true,
      blockers,
    };
  } catch (error) {
    const status = statusOf(error);
    if (status !== 404 && status !== 409) throw error;
    return {
      known: false,
      mergeable: null,
      outcome: 'UNKNOWN',
      conflicted: null,
      blockers: [],
      reason: `the server answered ${status}: ${(error as Error).message.replace(/^.*?failed \(\d+\): /, '')}`,
    };
  }
}
