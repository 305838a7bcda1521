// State for the fake's hooks, webhooks, builds and repository settings, kept beside FakeState (one per server).
import type { FakeState } from './state.ts';

/** A hook the fake's plugins provide. */
export type FakeHookDef = {
  key: string;
  name: string;
  type: string;
  description: string;
  configFormKey?: string;
};
/** A hook's state on one scope (`PROJ` or `PROJ/slug`). */
export type FakeHookConfig = { enabled: boolean; settings?: Record<string, unknown> };
/** A webhook of a project (`target` PROJ) or repository (`target` PROJ/slug). */
export type FakeWebhook = {
  id: number;
  scopeType: 'project' | 'repository';
  target: string;
  name: string;
  url: string;
  events: string[];
  active: boolean;
  sslVerificationRequired: boolean;
  configuration: Record<string, unknown>;
  credentials?: { username?: string; password?: string };
  createdDate: number;
  updatedDate: number;
};

/** A build status on a commit of a repository (`repo` PROJ/slug). */
export type FakeBuildStatus = {
  repo: string;
  commit: string;
  key: string;
  state: string;
  url: string;
  name?: string;
  description?: string;
  ref?: string;
  buildNumber?: string;
  createdDate: number;
  updatedDate: number;
};
/** A ref matcher as the required-builds and default-reviewers plugins store it. */
export type FakeRefMatcher = { id: string; displayId?: string; type: { id: string; name?: string } };
/** A required-builds merge check of a repository. */
export type FakeRequiredBuilds = {
  id: number;
  repo: string;
  buildParentKeys: string[];
  refMatcher: FakeRefMatcher;
  exemptRefMatcher?: FakeRefMatcher;
};

/** A repository's pull request settings as the fake stores them. */
export type FakePrSettings = {
  defaultStrategy: string;
  strategies: string[];
  requiredApprovers: number;
  requiredAllApprovers: boolean;
  requiredAllTasksComplete: boolean;
  requiredSuccessfulBuilds: number;
};
/** A reviewer group of a repository. */
export type FakeReviewerGroup = {
  id: number;
  repo: string;
  name: string;
  description?: string;
  users: string[];
};
/** A default-reviewers condition of a repository. */
export type FakeDefaultReviewers = {
  id: number;
  repo: string;
  sourceRefMatcher: FakeRefMatcher;
  targetRefMatcher: FakeRefMatcher;
  reviewers: string[];
  requiredApprovals: number;
};

/** The commit the seeded build statuses are on. */
export const seededCommit = '3f1c2e8d9b7a6c5d4e3f2a1b0c9d8e7f6a5b4c3d';

/** Everything the ops routes read and change; plain objects so tests can snapshot it with JSON. */
export type OpsState = {
  hookDefs: FakeHookDef[];
  /** Keyed by `${scope}|${hookKey}`. */
  hooks: Record<string, FakeHookConfig>;
  webhooks: FakeWebhook[];
  buildStatuses: FakeBuildStatus[];
  requiredBuilds: FakeRequiredBuilds[];
  /** Pull request settings set on a repository, by PROJ/slug; others get the defaults. */
  prSettings: Record<string, FakePrSettings>;
  /**
   * The required-approvers payload the server takes: `integer` servers answer 400 to the object form the
   * 9.4 document describes (the known deviation), `object` servers take both.
   */
  requiredApproversForm: 'integer' | 'object';
  /** Auto-merge settings by scope (PROJ or PROJ/slug). */
  autoMerge: Record<string, boolean>;
  /** Auto-decline settings by scope (PROJ or PROJ/slug). */
  autoDecline: Record<string, { enabled: boolean; inactivityWeeks: number }>;
  reviewerGroups: FakeReviewerGroup[];
  defaultReviewers: FakeDefaultReviewers[];
  nextId: number;
};

const states = new WeakMap<FakeState, OpsState>();

function seed(): OpsState {
  const bundled = 'com.atlassian.bitbucket.server.bitbucket-bundled-hooks';
  return {
    hookDefs: [
      {
        key: `${bundled}:force-push-hook`,
        name: 'Reject Force Push',
        type: 'PRE_RECEIVE',
        description: 'Reject all force pushes (git push --force) to this repository',
      },
      {
        key: `${bundled}:requiredApproversMergeHook`,
        name: 'Minimum approvals',
        type: 'PRE_PULL_REQUEST_MERGE',
        description: 'Requires a minimum number of approvals before a pull request can be merged',
        configFormKey: `${bundled}:requiredApproversMergeHook-config`,
      },
      {
        key: 'com.example.hooks:notify-hook',
        name: 'Notify chat',
        type: 'POST_RECEIVE',
        description: 'Posts pushes to a chat room',
        configFormKey: 'com.example.hooks:notify-hook-config',
      },
    ],
    hooks: {
      'PROJ|com.atlassian.bitbucket.server.bitbucket-bundled-hooks:force-push-hook': { enabled: true },
    },
    webhooks: [
      {
        id: 1,
        scopeType: 'repository',
        target: 'PROJ/api',
        name: 'ci',
        url: 'https://ci.example.test/hook',
        events: ['repo:refs_changed'],
        active: true,
        sslVerificationRequired: true,
        configuration: { secret: 'ci-webhook-secret' },
        createdDate: 1_700_000_000_000,
        updatedDate: 1_700_000_000_000,
      },
      {
        id: 2,
        scopeType: 'project',
        target: 'PROJ',
        name: 'audit',
        url: 'https://audit.example.test/events',
        events: ['pr:merged', 'repo:refs_changed'],
        active: true,
        sslVerificationRequired: true,
        configuration: {},
        createdDate: 1_700_000_000_000,
        updatedDate: 1_700_000_000_000,
      },
    ],
    buildStatuses: [
      {
        repo: 'PROJ/api',
        commit: seededCommit,
        key: 'ci-build',
        state: 'SUCCESSFUL',
        url: 'https://ci.example.test/builds/41',
        name: 'CI #41',
        ref: 'refs/heads/main',
        buildNumber: '41',
        createdDate: 1_700_000_000_000,
        updatedDate: 1_700_000_060_000,
      },
      {
        repo: 'PROJ/api',
        commit: seededCommit,
        key: 'lint',
        state: 'FAILED',
        url: 'https://ci.example.test/lint/7',
        name: 'Lint',
        description: '3 problems',
        createdDate: 1_700_000_000_000,
        updatedDate: 1_700_000_030_000,
      },
    ],
    requiredBuilds: [
      {
        id: 1,
        repo: 'PROJ/api',
        buildParentKeys: ['ci-build'],
        refMatcher: { id: 'refs/heads/main', displayId: 'main', type: { id: 'BRANCH', name: 'Branch' } },
      },
    ],
    prSettings: {},
    requiredApproversForm: 'integer',
    autoMerge: { PROJ: true },
    autoDecline: {},
    reviewerGroups: [
      { id: 1, repo: 'PROJ/api', name: 'backend', description: 'Backend team', users: ['alice', 'bob'] },
    ],
    defaultReviewers: [
      {
        id: 1,
        repo: 'PROJ/api',
        sourceRefMatcher: {
          id: 'ANY_REF_MATCHER_ID',
          displayId: 'ANY_REF_MATCHER_ID',
          type: { id: 'ANY_REF', name: 'Any branch' },
        },
        targetRefMatcher: {
          id: 'refs/heads/main',
          displayId: 'main',
          type: { id: 'BRANCH', name: 'Branch' },
        },
        reviewers: ['bob'],
        requiredApprovals: 1,
      },
    ],
    nextId: 500,
  };
}

/** The ops state of a fake server, created on first use. */
export function opsState(state: FakeState): OpsState {
  let ops = states.get(state);
  if (!ops) {
    ops = seed();
    states.set(state, ops);
  }
  return ops;
}

/** A deep copy of the ops state, for before/after comparisons in dry-run tests. */
export function snapshotOps(state: FakeState): string {
  return JSON.stringify(opsState(state));
}
