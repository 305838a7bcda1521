import type { Branch } from '../../../generated/types/cli/output/branch.ts';
import type { Tag } from '../../../generated/types/cli/output/tag.ts';
import { UsageError } from '../../core/errors.ts';
import type { RepoContext } from '../command.ts';
import type { BitbucketClient } from './client.ts';
import { getIfExists } from './optional.ts';
import type { Page } from './paging.ts';
import { segment } from './path.ts';
import { repoPath } from './repositories.ts';

/** A branch or tag as the Bitbucket REST API returns it. */
export type RestRef = {
  id: string;
  displayId: string;
  latestCommit?: string;
  latestChangeset?: string;
  isDefault?: boolean;
  hash?: string;
};

/** The branch shape bbdc prints; `default` when it is (or `defaultName` names) the default branch. */
export function toBranch(r: RestRef, defaultName?: string): Branch {
  return {
    name: r.displayId,
    id: r.id,
    latestCommit: r.latestCommit ?? r.latestChangeset ?? '',
    default: r.isDefault === true || r.displayId === defaultName,
  };
}

/** The tag shape bbdc prints. */
export function toTag(r: RestRef): Tag {
  const tag: Tag = { name: r.displayId, id: r.id, latestCommit: r.latestCommit ?? r.latestChangeset ?? '' };
  if (r.hash) tag.hash = r.hash;
  return tag;
}

/** True for a full or abbreviated commit id, which Bitbucket takes as is (never as refs/heads/<id>). */
export function isCommitId(value: string): boolean {
  return /^[0-9a-f]{7,40}$/i.test(value);
}

/** The start point Bitbucket expects: a commit id or full ref as given, a branch name as refs/heads/<name>. */
export function startPoint(from: string): string {
  if (isCommitId(from) || from.startsWith('refs/')) return from;
  return `refs/heads/${from}`;
}

/** The start point of a new branch or tag: `from`, else the repository's default branch. */
export async function startPointOrDefault(client: BitbucketClient, repo: RepoContext, from?: string) {
  if (from) return from;
  const def = await defaultBranch(client, repo);
  if (!def)
    throw new UsageError(`${repo.project}/${repo.slug} has no default branch yet; pass --from <commit>`);
  return def.displayId;
}

/** The name of a new `kind` from its argument, without its refs/heads/ or refs/tags/ prefix; git's rules apply. */
export function newRefName(arg: string, kind: 'branch' | 'tag'): string {
  const name = arg.replace(kind === 'branch' ? /^refs\/heads\// : /^refs\/tags\//, '');
  if (!name || /\s|\.\.|^-|[~^:?*[\\]|\/$|\.lock$/.test(name))
    throw new UsageError(`${kind} name "${arg}" is not a valid git ${kind} name`);
  return name;
}

/** The body that creates a branch or tag `name` at `from` (a tag with a message is annotated). */
export function newRefBody(o: { name: string; message?: string }, from: string) {
  return { name: o.name, startPoint: startPoint(from), ...(o.message && { message: o.message }) };
}

/** The branch named exactly `name`, found with the server-side filter, or undefined. */
export async function findBranch(client: BitbucketClient, repo: RepoContext, name: string) {
  const page = await client.get<Page<RestRef>>(`${repoPath(repo.project, repo.slug)}/branches`, {
    filterText: name,
    limit: 1000,
  });
  return page.values.find((b) => b.displayId === name || b.id === name);
}

/** The tag named `name`, or undefined. */
export function findTag(client: BitbucketClient, repo: RepoContext, name: string) {
  return getIfExists<RestRef>(client, `${repoPath(repo.project, repo.slug)}/tags/${segment('tag', name)}`);
}

/** The repository's default branch, or undefined when it has none yet (an empty repository). */
export function defaultBranch(client: BitbucketClient, repo: RepoContext) {
  return getIfExists<RestRef>(client, `${repoPath(repo.project, repo.slug)}/default-branch`);
}

/** Why `from` cannot be a start point (no such commit, tag or branch), or undefined when it exists. */
export async function missingStartPoint(
  client: BitbucketClient,
  repo: RepoContext,
  from: string,
): Promise<string | undefined> {
  const where = `${repo.project}/${repo.slug}`;
  if (isCommitId(from)) {
    const commit = await getIfExists(
      client,
      `${repoPath(repo.project, repo.slug)}/commits/${segment('--from', from)}`,
    );
    return commit ? undefined : `commit ${from} does not exist in ${where}`;
  }
  if (from.startsWith('refs/tags/')) {
    const tag = await findTag(client, repo, from.slice('refs/tags/'.length));
    return tag ? undefined : `tag ${from} does not exist in ${where}`;
  }
  const branch = await findBranch(client, repo, from.replace(/^refs\/heads\//, ''));
  return branch ? undefined : `branch ${from} does not exist in ${where}`;
}
