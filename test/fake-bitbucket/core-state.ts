// Data for the fake's core routes (git refs and commits, permission grants, groups), kept beside FakeState so
// the shared state module stays small. It is created on first use for a FakeState and seeded deterministically.
import { createHash } from 'node:crypto';
import { pullRequestsOf } from './pull-request-state.ts';
import type { FakeRepo, FakeState, FakeUser } from './state.ts';

/** A commit: who wrote it, when, its parents and the paths it touched. */
export type FakeCommit = {
  id: string;
  message: string;
  author: string;
  timestamp: number;
  parents: string[];
  paths: string[];
};
/** A tag: the commit it points at, and for an annotated tag its message and object hash. */
export type FakeTag = { commit: string; message?: string; hash?: string };
/**
 * One repository's git data. Branch heads and the default branch live in the pull request data
 * (pull-request-state.ts) so that branch commands and pull requests see the same branches.
 */
export type FakeGit = {
  commits: Map<string, FakeCommit>;
  branches: Record<string, string>;
  tags: Map<string, FakeTag>;
  defaultBranch: string;
};
/** Project permissions (PROJECT_*) or repository permissions (REPO_*) given to users and groups. */
export type Grants = { users: Map<string, string>; groups: Map<string, string> };
/** The core data: git per repository id, grants per `KEY` or `KEY/slug`, and group members. */
export type CoreState = {
  git: Map<number, FakeGit>;
  grants: Map<string, Grants>;
  groups: Map<string, string[]>;
};

const cores = new WeakMap<FakeState, CoreState>();

/** The core data of a fake state, created on first use. */
export function coreOf(state: FakeState): CoreState {
  let core = cores.get(state);
  if (!core) {
    core = {
      git: new Map(),
      grants: new Map(),
      groups: new Map([
        ['developers', ['bob']],
        ['release-managers', []],
      ]),
    };
    cores.set(state, core);
  }
  return core;
}

/** A deterministic 40-hex id for a seed. */
export function sha(seed: string): string {
  return createHash('sha1').update(seed).digest('hex');
}

/**
 * The git data of a repository. Seeded history: c1 README, c2 src/main.ts and a binary assets/logo.png, c3 docs/guide.md on
 * feature/docs (from c1), c4 merges feature/docs into master. Tag v1.0 (annotated) points at c2.
 * A repository the pull request data already gives branches keeps them (and its default branch);
 * their tips become commits on top of c1.
 */
export function gitOf(state: FakeState, repo: FakeRepo): FakeGit {
  const core = coreOf(state);
  let git = core.git.get(repo.id);
  if (!git) {
    const id = (n: number) => sha(`${repo.id}:${n}`);
    const t0 = 1_700_000_000_000;
    const commits: FakeCommit[] = [
      {
        id: id(1),
        message: 'Initial commit',
        author: 'alice',
        timestamp: t0,
        parents: [],
        paths: ['README.md'],
      },
      {
        id: id(2),
        message: 'Add main',
        author: 'alice',
        timestamp: t0 + 60_000,
        parents: [id(1)],
        paths: ['src/main.ts', 'assets/logo.png'],
      },
      {
        id: id(3),
        message: 'Write the guide',
        author: 'bob',
        timestamp: t0 + 120_000,
        parents: [id(1)],
        paths: ['docs/guide.md'],
      },
      {
        id: id(4),
        message: "Merge branch 'feature/docs'",
        author: 'alice',
        timestamp: t0 + 180_000,
        parents: [id(2), id(3)],
        paths: ['docs/guide.md'],
      },
    ];
    const prs = pullRequestsOf(state);
    const key = `${repo.projectKey.toUpperCase()}/${repo.slug}`;
    if (!prs.branches[key]) {
      prs.branches[key] = { master: id(4), 'feature/docs': id(3) };
      prs.defaultBranches[key] = 'master';
    }
    const branches = prs.branches[key];
    for (const [name, tip] of Object.entries(branches)) {
      if (!commits.some((c) => c.id === tip))
        commits.push({
          id: tip,
          message: `Work on ${name}`,
          author: 'bob',
          timestamp: t0 + 240_000,
          parents: [id(1)],
          paths: [`${name}.txt`],
        });
    }
    git = {
      commits: new Map(commits.map((c) => [c.id, c])),
      branches,
      tags: new Map([
        ['v1.0', { commit: id(2), message: 'First release', hash: sha(`${repo.id}:tag:v1.0`) }],
      ]),
      get defaultBranch() {
        return prs.defaultBranches[key] ?? 'main';
      },
      set defaultBranch(name: string) {
        prs.defaultBranches[key] = name;
      },
    };
    core.git.set(repo.id, git);
  }
  return git;
}

/** Resolves a commit id (full or abbreviated), `refs/heads/x`, `refs/tags/x` or a bare branch or tag name. */
export function resolveRef(git: FakeGit, ref: string): string | undefined {
  if (/^[0-9a-f]{4,40}$/.test(ref)) {
    const found = [...git.commits.keys()].filter((k) => k.startsWith(ref));
    if (found.length === 1) return found[0];
  }
  const name = ref.replace(/^refs\/(heads|tags)\//, '');
  if (!ref.startsWith('refs/tags/') && name in git.branches) return git.branches[name];
  if (!ref.startsWith('refs/heads/') && git.tags.has(name)) return git.tags.get(name)!.commit;
  return undefined;
}

/** Commits reachable from `until` and not from `since`, newest first. */
export function history(git: FakeGit, until: string, since?: string): FakeCommit[] {
  const reach = (from: string | undefined) => {
    const seen = new Set<string>();
    const todo = from ? [from] : [];
    while (todo.length) {
      const c = git.commits.get(todo.pop()!);
      if (!c || seen.has(c.id)) continue;
      seen.add(c.id);
      todo.push(...c.parents);
    }
    return seen;
  };
  const excluded = reach(since);
  return [...reach(until)]
    .filter((id) => !excluded.has(id))
    .map((id) => git.commits.get(id)!)
    .sort((a, b) => b.timestamp - a.timestamp);
}

const projectLevels = ['PROJECT_READ', 'PROJECT_WRITE', 'PROJECT_ADMIN'];
const repoLevels = ['REPO_READ', 'REPO_WRITE', 'REPO_ADMIN'];

/** The rank of a permission (0 = none, 1 read, 2 write, 3 admin), for projects and repositories alike. */
export function rank(permission: string | undefined): number {
  if (!permission) return 0;
  return Math.max(projectLevels.indexOf(permission), repoLevels.indexOf(permission)) + 1;
}

function grantsRank(grants: Grants | undefined, user: FakeUser, groups: Map<string, string[]>): number {
  if (!grants) return 0;
  let best = rank(grants.users.get(user.name));
  for (const [group, permission] of grants.groups)
    if (groups.get(group)?.includes(user.name)) best = Math.max(best, rank(permission));
  return best;
}

/** The user's effective rank on a project: admins and owners of a personal project 3, others read plus grants. */
export function projectRank(state: FakeState, user: FakeUser | undefined, projectKey: string): number {
  if (!user) return 0;
  if (user.admin || projectKey.toLowerCase() === `~${user.slug}`) return 3;
  const core = coreOf(state);
  return Math.max(1, grantsRank(core.grants.get(projectKey), user, core.groups));
}

/** The user's effective rank on a repository: the project's rank or the repository's own grants. */
export function repoRank(state: FakeState, user: FakeUser | undefined, repo: FakeRepo): number {
  if (!user) return 0;
  const core = coreOf(state);
  const own = grantsRank(core.grants.get(`${repo.projectKey}/${repo.slug}`), user, core.groups);
  return Math.max(projectRank(state, user, repo.projectKey), own);
}

/** The grants of a project (`KEY`) or repository (`KEY/slug`), created empty on first use. */
export function grantsOf(state: FakeState, scope: string): Grants {
  const core = coreOf(state);
  let grants = core.grants.get(scope);
  if (!grants) {
    grants = { users: new Map(), groups: new Map() };
    core.grants.set(scope, grants);
  }
  return grants;
}
