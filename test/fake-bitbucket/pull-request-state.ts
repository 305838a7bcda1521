// Pull request data for the fake server, kept beside (not inside) FakeState: pullRequestsOf(state) seeds it once.
import type { FakeState } from './state.ts';

/** A user's part in a pull request. */
export type FakeParticipant = {
  name: string;
  role: 'AUTHOR' | 'REVIEWER' | 'PARTICIPANT';
  status: 'UNAPPROVED' | 'NEEDS_WORK' | 'APPROVED';
};
/** Where an inline comment sits in the diff. */
export type FakeAnchor = {
  path: string;
  line?: number;
  lineType?: 'ADDED' | 'REMOVED' | 'CONTEXT';
  fileType?: 'FROM' | 'TO';
};
/** A comment or, with severity BLOCKER, a task; replies point at their parent. */
export type FakeComment = {
  id: number;
  version: number;
  text: string;
  author: string;
  created: number;
  parentId?: number;
  severity: 'NORMAL' | 'BLOCKER';
  /** PENDING: part of its author's unpublished review batch, seen by nobody else. */
  state: 'OPEN' | 'RESOLVED' | 'PENDING';
  threadResolved: boolean;
  anchor?: FakeAnchor;
};
/** One hunk of a file's diff. */
export type FakeHunk = {
  sourceLine: number;
  sourceSpan: number;
  destinationLine: number;
  destinationSpan: number;
  segments: { type: 'ADDED' | 'REMOVED' | 'CONTEXT'; lines: string[] }[];
};
/** A changed file. */
export type FakeFile = {
  path: string;
  srcPath?: string;
  type: 'ADD' | 'MODIFY' | 'DELETE' | 'MOVE';
  hunks: FakeHunk[];
};
/** A commit of a pull request. */
export type FakeCommit = { id: string; message: string; author: string; timestamp: number };
/** A build status reported for a commit. */
export type FakeBuild = {
  key: string;
  name: string;
  state: 'SUCCESSFUL' | 'FAILED' | 'INPROGRESS' | 'CANCELLED' | 'UNKNOWN';
  url: string;
  updated: number;
};
/** A pull request with everything the routes serve about it. */
export type FakePullRequest = {
  id: number;
  projectKey: string;
  slug: string;
  title: string;
  description: string;
  state: 'OPEN' | 'MERGED' | 'DECLINED';
  draft: boolean;
  version: number;
  from: string;
  to: string;
  fromCommit: string;
  toCommit: string;
  participants: FakeParticipant[];
  created: number;
  updated: number;
  closed?: number;
  vetoes: { summaryMessage: string; detailedMessage: string }[];
  conflicted: boolean;
  /** Forces GET .../merge to answer this status, as live servers sometimes do. */
  mergeStatus?: 404 | 409;
  autoMerge?: { strategyId?: string; created: number };
  commits: FakeCommit[];
  files: FakeFile[];
  comments: FakeComment[];
};
/** Everything about pull requests: the PRs, builds by commit, branches and default branch by `PROJ/slug`. */
export type PullRequestData = {
  pullRequests: FakePullRequest[];
  builds: Record<string, FakeBuild[]>;
  branches: Record<string, Record<string, string>>;
  defaultBranches: Record<string, string>;
  nextId: number;
  now: number;
};

const data = new WeakMap<FakeState, PullRequestData>();
const t0 = 1_700_000_000_000;
const sha = (n: number) => n.toString(16).padStart(2, '0').repeat(20);

function hunk(added: string[], context: string[] = []): FakeHunk {
  return {
    sourceLine: 1,
    sourceSpan: context.length,
    destinationLine: 1,
    destinationSpan: context.length + added.length,
    segments: [
      ...(context.length ? [{ type: 'CONTEXT' as const, lines: context }] : []),
      { type: 'ADDED', lines: added },
    ],
  };
}

function seed(): PullRequestData {
  const base = {
    projectKey: 'PROJ',
    slug: 'api',
    draft: false,
    vetoes: [],
    conflicted: false,
    toCommit: sha(1),
    files: [],
    commits: [],
    comments: [],
  };
  const login: FakePullRequest = {
    ...base,
    id: 1,
    title: 'Add login page',
    description: 'Adds a login form.',
    state: 'OPEN',
    version: 0,
    from: 'feature/login',
    to: 'main',
    fromCommit: sha(2),
    participants: [{ name: 'bob', role: 'AUTHOR', status: 'UNAPPROVED' }],
    created: t0,
    updated: t0 + 1000,
    commits: [
      { id: sha(2), message: 'Validate the password', author: 'bob', timestamp: t0 + 900 },
      { id: sha(3), message: 'Add the login form', author: 'bob', timestamp: t0 + 500 },
    ],
    files: [
      {
        path: 'src/login.ts',
        type: 'ADD',
        hunks: [
          hunk([
            'export function login(user: string, password: string) {',
            '  return check(user, password);',
            '}',
          ]),
        ],
      },
      { path: 'README.md', type: 'MODIFY', hunks: [hunk(['See the login page.'], ['# api'])] },
    ],
    comments: [
      {
        id: 10,
        version: 0,
        text: 'Looks good overall.',
        author: 'alice',
        created: t0 + 2000,
        severity: 'NORMAL',
        state: 'OPEN',
        threadResolved: false,
      },
      {
        id: 11,
        version: 0,
        text: 'Thanks!',
        author: 'bob',
        created: t0 + 3000,
        parentId: 10,
        severity: 'NORMAL',
        state: 'OPEN',
        threadResolved: false,
      },
      {
        id: 12,
        version: 0,
        text: 'Check the password length here.',
        author: 'alice',
        created: t0 + 4000,
        severity: 'NORMAL',
        state: 'OPEN',
        threadResolved: false,
        anchor: { path: 'src/login.ts', line: 2, lineType: 'ADDED', fileType: 'TO' },
      },
      {
        id: 13,
        version: 0,
        text: 'Done in the next commit.',
        author: 'bob',
        created: t0 + 5000,
        parentId: 12,
        severity: 'NORMAL',
        state: 'OPEN',
        threadResolved: false,
      },
      {
        id: 14,
        version: 0,
        text: 'Agreed.',
        author: 'alice',
        created: t0 + 6000,
        parentId: 13,
        severity: 'NORMAL',
        state: 'OPEN',
        threadResolved: false,
      },
      {
        id: 15,
        version: 0,
        text: 'Add tests for the login form',
        author: 'alice',
        created: t0 + 7000,
        severity: 'BLOCKER',
        state: 'OPEN',
        threadResolved: false,
      },
    ],
  };
  const search: FakePullRequest = {
    ...base,
    id: 2,
    title: 'Search API',
    description: '',
    state: 'OPEN',
    version: 3,
    from: 'feature/search',
    to: 'main',
    fromCommit: sha(4),
    participants: [
      { name: 'alice', role: 'AUTHOR', status: 'UNAPPROVED' },
      { name: 'bob', role: 'REVIEWER', status: 'APPROVED' },
    ],
    created: t0 + 10_000,
    updated: t0 + 11_000,
    vetoes: [{ summaryMessage: 'Not enough approvals', detailedMessage: 'Requires 2 approvals, has 1.' }],
    commits: [{ id: sha(4), message: 'Add search', author: 'alice', timestamp: t0 + 9000 }],
  };
  const crash: FakePullRequest = {
    ...base,
    id: 3,
    title: 'Fix crash on empty input',
    description: 'Guards against an empty body.',
    state: 'DECLINED',
    version: 1,
    from: 'bugfix/crash',
    to: 'main',
    fromCommit: sha(5),
    participants: [{ name: 'bob', role: 'AUTHOR', status: 'UNAPPROVED' }],
    created: t0 + 20_000,
    updated: t0 + 21_000,
    closed: t0 + 21_000,
  };
  return {
    pullRequests: [login, search, crash],
    builds: {
      [sha(5)]: [
        {
          key: 'ci-build',
          name: 'Build',
          state: 'SUCCESSFUL',
          url: 'https://ci.example.test/3',
          updated: t0 + 20_500,
        },
      ],
      [sha(2)]: [
        {
          key: 'ci-build',
          name: 'Build',
          state: 'SUCCESSFUL',
          url: 'https://ci.example.test/1',
          updated: t0 + 1100,
        },
        {
          key: 'ci-test',
          name: 'Tests',
          state: 'INPROGRESS',
          url: 'https://ci.example.test/2',
          updated: t0 + 1200,
        },
      ],
    },
    branches: {
      'PROJ/api': {
        main: sha(1),
        'feature/login': sha(2),
        'feature/search': sha(4),
        'bugfix/crash': sha(5),
        'feature/new': sha(6),
      },
    },
    defaultBranches: { 'PROJ/api': 'main' },
    nextId: 100,
    now: t0 + 100_000,
  };
}

/** The pull request data of a fake server's state, seeded on first use. */
export function pullRequestsOf(state: FakeState): PullRequestData {
  let d = data.get(state);
  if (!d) {
    d = seed();
    data.set(state, d);
  }
  return d;
}

/** The next timestamp: each change is one second after the last, so order is stable. */
export function tick(d: PullRequestData): number {
  d.now += 1000;
  return d.now;
}
