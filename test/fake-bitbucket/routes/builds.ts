// Routes for commit build statuses and required-builds merge checks (bbdc build status, build required).
import { type FakeBuildStatus, type FakeRefMatcher, opsState } from '../ops-state.ts';
import { pullRequestsOf } from '../pull-request-state.ts';
import {
  bitbucketError,
  page,
  type RouteContext,
  type RouteResult,
  type RouteTable,
} from '../route-types.ts';
import { adminScope, findScope, isError } from './scope.ts';

const states = ['CANCELLED', 'FAILED', 'INPROGRESS', 'SUCCESSFUL', 'UNKNOWN'];
const matcherTypes = ['ANY_REF', 'BRANCH', 'PATTERN', 'MODEL_CATEGORY', 'MODEL_BRANCH'];
const validation = 'com.atlassian.bitbucket.validation.ArgumentValidationException';

function statusJson(s: FakeBuildStatus) {
  const [projectKey, repositorySlug] = s.repo.split('/');
  const { repo: _repo, commit: _commit, ...rest } = s;
  return { ...rest, projectKey, repositorySlug };
}

const badCommit = (ctx: RouteContext): RouteResult | undefined =>
  /^[0-9a-f]{40}$/.test(ctx.params.commitId)
    ? undefined
    : bitbucketError(400, `${ctx.params.commitId} is not a full 40-character commit id.`, validation);

function errors(list: [string, string][]): RouteResult | undefined {
  return list.length
    ? {
        status: 400,
        body: { errors: list.map(([context, message]) => ({ context, message, exceptionName: validation })) },
      }
    : undefined;
}

function invalidMatcher(field: string, m: FakeRefMatcher | undefined, required: boolean): [string, string][] {
  if (!m) return required ? [[field, `${field} is required.`]] : [];
  const out: [string, string][] = [];
  if (!m.id) out.push([`${field}.id`, 'A ref matcher id is required.']);
  if (!matcherTypes.includes(m.type?.id))
    out.push([`${field}.type.id`, `must be one of ${matcherTypes.join(', ')}.`]);
  return out;
}

/** Build statuses (the repository resource and the deprecated commit-wide list) and required builds. */
export const buildRoutes: RouteTable = {
  // Serves both stores of statuses: those `build status set` writes and those seeded for pull requests.
  getBuildStatus: {
    auth: 'required',
    handle: (ctx) => {
      const bad = badCommit(ctx);
      if (bad) return bad;
      const commit = ctx.params.commitId;
      const reported = opsState(ctx.state)
        .buildStatuses.filter((s) => s.commit === commit)
        .map(statusJson);
      const seeded = (pullRequestsOf(ctx.state).builds[commit] ?? []).map((b) => ({
        key: b.key,
        name: b.name,
        state: b.state,
        url: b.url,
        dateAdded: b.updated,
        updatedDate: b.updated,
      }));
      return page(
        [...reported, ...seeded].sort((a, b) => b.updatedDate - a.updatedDate),
        ctx.query,
      );
    },
  },
  // The document also names GET /basicauth/latest/config `get`; only the build-status one is served here.
  get: {
    auth: 'optional',
    handle: (ctx) => {
      if (!ctx.params.commitId)
        return bitbucketError(501, 'fake-bitbucket serves only the build-status `get`');
      const scope = findScope(ctx);
      if (isError(scope)) return scope;
      const found = opsState(ctx.state).buildStatuses.find(
        (s) => s.repo === scope.id && s.commit === ctx.params.commitId && s.key === ctx.query.get('key'),
      );
      if (!found)
        return bitbucketError(
          404,
          `No build status with key ${ctx.query.get('key')} exists for ${ctx.params.commitId}.`,
          'com.atlassian.bitbucket.build.status.NoSuchBuildStatusException',
        );
      return { status: 200, body: statusJson(found) };
    },
  },
  add: {
    auth: 'required',
    handle: (ctx) => {
      const scope = findScope(ctx);
      if (isError(scope)) return scope;
      const bad = badCommit(ctx);
      if (bad) return bad;
      const b = (ctx.body ?? {}) as Partial<FakeBuildStatus>;
      const invalid = errors([
        ...(!b.key ? [['key', 'key is required.'] as [string, string]] : []),
        ...(!b.url ? [['url', 'url is required.'] as [string, string]] : []),
        ...((b.url ?? '').length > 450
          ? [['url', 'url must be at most 450 characters.'] as [string, string]]
          : []),
        ...(!states.includes(b.state ?? '')
          ? [['state', `state must be one of ${states.join(', ')}.`] as [string, string]]
          : []),
        ...(b.ref !== undefined && !b.ref.startsWith('refs/')
          ? [['ref', 'ref must start with refs/.'] as [string, string]]
          : []),
      ]);
      if (invalid) return invalid;
      const ops = opsState(ctx.state);
      const now = 1_700_000_000_000 + ops.nextId++ * 1000;
      const existing = ops.buildStatuses.find(
        (s) => s.repo === scope.id && s.commit === ctx.params.commitId && s.key === b.key,
      );
      const next: FakeBuildStatus = {
        repo: scope.id,
        commit: ctx.params.commitId,
        key: b.key!,
        state: b.state!,
        url: b.url!,
        ...(b.name !== undefined && { name: b.name }),
        ...(b.description !== undefined && { description: b.description }),
        ...(b.ref !== undefined && { ref: b.ref }),
        ...(b.buildNumber !== undefined && { buildNumber: b.buildNumber }),
        createdDate: existing?.createdDate ?? now,
        updatedDate: now,
      };
      ops.buildStatuses = [...ops.buildStatuses.filter((s) => s !== existing), next];
      return { status: 204 };
    },
  },
  getPageOfRequiredBuildsMergeChecks: {
    auth: 'optional',
    handle: (ctx) => {
      const scope = findScope(ctx);
      if (isError(scope)) return scope;
      const checks = opsState(ctx.state).requiredBuilds.filter((c) => c.repo === scope.id);
      return page(
        checks.map(({ repo: _repo, ...c }) => c),
        ctx.query,
      );
    },
  },
  createRequiredBuildsMergeCheck: {
    auth: 'required',
    handle: (ctx) => {
      const scope = adminScope(ctx);
      if (isError(scope)) return scope;
      const b = (ctx.body ?? {}) as {
        buildParentKeys?: string[];
        refMatcher?: FakeRefMatcher;
        exemptRefMatcher?: FakeRefMatcher;
      };
      const invalid = errors([
        ...(!Array.isArray(b.buildParentKeys) || b.buildParentKeys.length === 0
          ? [['buildParentKeys', 'At least one build parent key is required.'] as [string, string]]
          : []),
        ...invalidMatcher('refMatcher', b.refMatcher, true),
        ...invalidMatcher('exemptRefMatcher', b.exemptRefMatcher, false),
      ]);
      if (invalid) return invalid;
      const ops = opsState(ctx.state);
      const check = {
        id: ops.nextId++,
        repo: scope.id,
        buildParentKeys: b.buildParentKeys!,
        refMatcher: b.refMatcher!,
        ...(b.exemptRefMatcher && { exemptRefMatcher: b.exemptRefMatcher }),
      };
      ops.requiredBuilds.push(check);
      const { repo: _repo, ...body } = check;
      return { status: 200, body };
    },
  },
  deleteRequiredBuildsMergeCheck: {
    auth: 'required',
    handle: (ctx) => {
      const scope = adminScope(ctx);
      if (isError(scope)) return scope;
      const ops = opsState(ctx.state);
      ops.requiredBuilds = ops.requiredBuilds.filter(
        (c) => !(c.repo === scope.id && c.id === Number(ctx.params.id)),
      );
      return { status: 204 };
    },
  },
};
