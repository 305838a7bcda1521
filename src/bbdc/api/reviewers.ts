import type { DefaultReviewers } from '../../../generated/types/cli/output/repo-settings-default-reviewers-list.ts';
import type { ReviewerGroup } from '../../../generated/types/cli/output/repo-settings-reviewer-groups-list.ts';
import { UsageError } from '../../core/errors.ts';
import type { BitbucketClient } from './client.ts';
import { statusOf } from './errors.ts';
import type { RestUser } from './identity.ts';
import type { Id } from './ids.ts';
import { pluginRepoPath, userPath } from './path.ts';
import { formatRefMatcher, type RestRefMatcher } from './ref-matcher.ts';
import { repoPath } from './repositories.ts';

/** A reviewer group as .../settings/reviewer-groups returns it. */
export type RestReviewerGroup = { id: number; name: string; description?: string; users?: RestUser[] };

/** A default-reviewers condition as the default-reviewers plugin returns it. */
export type RestCondition = {
  id: number;
  sourceRefMatcher: RestRefMatcher;
  targetRefMatcher: RestRefMatcher;
  reviewers: RestUser[];
  requiredApprovals: number;
};

/** The reviewer groups of a repository, or one of them. */
export function reviewerGroupsPath(project: string, slug: string, id?: Id): string {
  return `${repoPath(project, slug)}/settings/reviewer-groups${id === undefined ? '' : `/${id}`}`;
}

/** The default-reviewer conditions of a repository (`list`), where new ones go (`new`), or one of them. */
export function conditionsPath(project: string, slug: string, id: number | 'list' | 'new' = 'list'): string {
  const base = pluginRepoPath('default-reviewers', project, slug);
  if (id === 'list') return `${base}/conditions`;
  return id === 'new' ? `${base}/condition` : `${base}/condition/${id}`;
}

/** The printed reviewer group: user names only. */
export function toReviewerGroup(g: RestReviewerGroup): ReviewerGroup {
  const out: ReviewerGroup = { id: g.id, name: g.name, users: (g.users ?? []).map((u) => u.name) };
  if (g.description) out.description = g.description;
  return out;
}

/** The printed condition, matchers in the command-line syntax. */
export function toDefaultReviewers(c: RestCondition): DefaultReviewers {
  return {
    id: c.id,
    source: formatRefMatcher(c.sourceRefMatcher),
    target: formatRefMatcher(c.targetRefMatcher),
    reviewers: c.reviewers.map((u) => u.name),
    requiredApprovals: c.requiredApprovals,
  };
}

/** Splits `a,b` / repeated flag values into distinct user names, naming the flag when none is given. */
export function userList(value: unknown, flag: string): string[] {
  const names = ((value as string[] | undefined) ?? []).flatMap((v) =>
    v
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean),
  );
  if (names.length === 0) throw new UsageError(`${flag} USERS is required: user names, comma-separated`);
  return [...new Set(names)];
}

/** Reads each user, so requests carry the full user objects the server expects; an unknown name is a usage error. */
export async function resolveUsers(client: BitbucketClient, names: string[]): Promise<RestUser[]> {
  const users: RestUser[] = [];
  for (const name of names) {
    try {
      users.push(await client.get<RestUser>(userPath('user', name)));
    } catch (error) {
      if (statusOf(error) === 404) throw new UsageError(`user "${name}" does not exist on the server`);
      throw error;
    }
  }
  return users;
}
