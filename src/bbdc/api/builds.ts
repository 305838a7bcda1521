import type { BuildStatus } from '../../../generated/types/cli/output/build-status-get.ts';
import { UsageError } from '../../core/errors.ts';
import type { Id } from './ids.ts';
import { pluginRepoPath, segment } from './path.ts';
import type { RestRefMatcher } from './ref-matcher.ts';
import { repoPath } from './repositories.ts';
import { isoTime } from './timestamps.ts';

/** A build status as Bitbucket returns it (repository resource and the commit-wide list alike). */
export type RestBuildStatus = {
  key: string;
  state: string;
  url: string;
  name?: string;
  description?: string;
  ref?: string;
  buildNumber?: string;
  projectKey?: string;
  repositorySlug?: string;
  createdDate?: number;
  updatedDate?: number;
  dateAdded?: number;
};

/** A required-builds merge check as the required-builds plugin returns it. */
export type RestRequiredBuilds = {
  id: number;
  buildParentKeys: string[];
  refMatcher: RestRefMatcher;
  exemptRefMatcher?: RestRefMatcher;
};

/** Build statuses need the full commit id; a ref or short id is a usage error that says how to get it. */
export function fullCommitId(text: string): string {
  const id = text.trim().toLowerCase();
  if (!/^[0-9a-f]{40}$/.test(id))
    throw new UsageError(
      `commit "${text}" is not a full 40-character commit id; build statuses need one (try \`git rev-parse ${text}\`)`,
    );
  return id;
}

/** The repository build-status resource of a commit. */
export function buildsPath(project: string, slug: string, commit: string): string {
  return `${repoPath(project, slug)}/commits/${segment('commit', commit)}/builds`;
}

/** The required-builds merge checks of a repository (`list`), where new ones are posted (`new`), or one of them. */
export function requiredBuildsPath(project: string, slug: string, id: Id | 'list' | 'new' = 'list'): string {
  const base = pluginRepoPath('required-builds', project, slug);
  if (id === 'list') return `${base}/conditions`;
  return id === 'new' ? `${base}/condition` : `${base}/condition/${id}`;
}

/** The printed build status, with ISO dates and the repository when the server names it. */
export function toBuildStatus(s: RestBuildStatus): BuildStatus {
  const out: BuildStatus = { key: s.key, state: s.state, url: s.url };
  if (s.name) out.name = s.name;
  if (s.description) out.description = s.description;
  if (s.ref) out.ref = s.ref;
  if (s.buildNumber) out.buildNumber = s.buildNumber;
  if (s.projectKey && s.repositorySlug) out.repository = `${s.projectKey}/${s.repositorySlug}`;
  const updated = s.updatedDate ?? s.dateAdded;
  if (updated) out.updatedDate = isoTime(updated, `build ${s.key} dateAdded`);
  return out;
}
