// Repository administration routes: watching (readers may watch), labels (REPO_ADMIN to change) and fork
// syncing (REPO_ADMIN; only forks have it).
import { watchersOf } from '../review-state.ts';
import { bitbucketError, page, type RouteContext } from '../route-types.ts';
import type { FakeRepo, FakeState } from '../state.ts';
import { type DeclaredRoute, repoRoute } from './declared.ts';

const labels = new WeakMap<FakeState, Map<number, Set<string>>>();
const syncing = new WeakMap<FakeState, Map<number, boolean>>();

/** The value under `key` of a per-server map, created on first use. */
function per<K extends object, J, V>(store: WeakMap<K, Map<J, V>>, owner: K, key: J, make: () => V): V {
  const all = store.get(owner) ?? new Map<J, V>();
  store.set(owner, all);
  const value = all.get(key) ?? make();
  all.set(key, value);
  return value;
}

const labelsOf = (ctx: RouteContext, repo: FakeRepo) =>
  per(labels, ctx.state, repo.id, () => new Set<string>());

function syncOf(ctx: RouteContext): {
  get(id: number): boolean | undefined;
  set(id: number, on: boolean): void;
} {
  return {
    get: (id) => per(syncing, ctx.state, id, () => false),
    set: (id, on) => {
      per(syncing, ctx.state, id, () => on);
      syncing.get(ctx.state)!.set(id, on);
    },
  };
}

const signedIn = (ctx: RouteContext) =>
  ctx.user ? undefined : bitbucketError(401, 'Authentication required.');

/** Routes keyed by operationId, each with the permission Bitbucket requires. */
export const repoAdminRoutes: Record<string, DeclaredRoute> = {
  watch_2: repoRoute('REPO_READ', (ctx, repo) => {
    const anonymous = signedIn(ctx);
    if (anonymous) return anonymous;
    watchersOf(ctx.state, `${repo.projectKey}/${repo.slug}`).add(ctx.user!.name);
    return { status: 204 };
  }),
  unwatch_2: repoRoute('REPO_READ', (ctx, repo) => {
    const anonymous = signedIn(ctx);
    if (anonymous) return anonymous;
    watchersOf(ctx.state, `${repo.projectKey}/${repo.slug}`).delete(ctx.user!.name);
    return { status: 204 };
  }),
  getAllLabelsForRepository: repoRoute('REPO_READ', (ctx, repo) =>
    page(
      [...labelsOf(ctx, repo)].sort().map((name) => ({ name })),
      ctx.query,
    ),
  ),
  addLabel: repoRoute('REPO_ADMIN', (ctx, repo) => {
    const name = String(((ctx.body ?? {}) as { name?: unknown }).name ?? '').toLowerCase();
    if (!/^[a-z0-9][a-z0-9_-]{2,49}$/.test(name))
      return bitbucketError(
        400,
        'name: A label must be 3-50 characters.',
        'com.atlassian.bitbucket.validation.ArgumentValidationException',
      );
    labelsOf(ctx, repo).add(name);
    return { status: 200, body: { name } };
  }),
  removeLabel: repoRoute('REPO_ADMIN', (ctx, repo) => {
    if (!labelsOf(ctx, repo).delete(ctx.params.labelName))
      return bitbucketError(
        404,
        `The repository has no label ${ctx.params.labelName}.`,
        'com.atlassian.bitbucket.label.NoSuchLabelException',
      );
    return { status: 204 };
  }),
  getStatus: repoRoute('REPO_READ', (ctx, repo) => ({
    status: 200,
    body: {
      available: repo.originId !== undefined,
      enabled: syncOf(ctx).get(repo.id) === true,
      aheadRefs: [],
      divergedRefs: [],
      orphanedRefs: [],
    },
  })),
  setEnabled: repoRoute('REPO_ADMIN', (ctx, repo) => {
    if (repo.originId === undefined)
      return bitbucketError(
        400,
        `${repo.projectKey}/${repo.slug} is not a fork; only forks can be synced.`,
        'com.atlassian.bitbucket.repository.sync.RefSyncNotAvailableException',
      );
    syncOf(ctx).set(repo.id, ((ctx.body ?? {}) as { enabled?: boolean }).enabled === true);
    return {
      status: 200,
      body: {
        available: true,
        enabled: syncOf(ctx).get(repo.id),
        aheadRefs: [],
        divergedRefs: [],
        orphanedRefs: [],
      },
    };
  }),
  // Fork sync on demand: the ref must be a branch the fork has; the fake records the action and answers 204 (in sync).
  synchronize: repoRoute('REPO_WRITE', (ctx, repo) => {
    const b = (ctx.body ?? {}) as { refId?: string; action?: string };
    if (repo.originId === undefined)
      return bitbucketError(
        400,
        `${repo.projectKey}/${repo.slug} is not a fork; only forks can be synced.`,
        'com.atlassian.bitbucket.repository.sync.RefSyncNotAvailableException',
      );
    if (!['MERGE', 'REBASE', 'DISCARD'].includes(String(b.action)) || !b.refId?.startsWith('refs/heads/'))
      return bitbucketError(
        400,
        'action must be MERGE, REBASE or DISCARD and refId a branch (refs/heads/...).',
      );
    syncActionsOf(ctx.state).push({
      repo: `${repo.projectKey}/${repo.slug}`,
      refId: b.refId,
      action: b.action!,
    });
    return { status: 204 };
  }),
};

const syncActions = new WeakMap<object, { repo: string; refId: string; action: string }[]>();
/** The fork sync actions the fake was asked for, in order. */
export function syncActionsOf(state: object) {
  if (!syncActions.has(state)) syncActions.set(state, []);
  return syncActions.get(state)!;
}
