// The branching model configuration (an undocumented resource live servers serve: deviations.ts, branch-model-*).
import { bitbucketError, type RouteContext } from '../route-types.ts';
import type { FakeRepo } from '../state.ts';
import { type DeclaredRoute, repoRoute } from './declared.ts';

type Ref = { refId: string | null; useDefault: boolean };
export type FakeBranchModel = {
  development: Ref;
  production: Ref | null;
  types: { id: string; displayName: string; enabled: boolean; prefix: string }[];
};

const names: Record<string, string> = {
  BUGFIX: 'Bugfix',
  FEATURE: 'Feature',
  HOTFIX: 'Hotfix',
  RELEASE: 'Release',
};
const models = new WeakMap<object, Map<number, FakeBranchModel>>();

/** The model of a repository: Bitbucket's default until someone changes it. */
export function branchModelOf(ctx: Pick<RouteContext, 'state'>, repo: FakeRepo): FakeBranchModel {
  if (!models.has(ctx.state)) models.set(ctx.state, new Map());
  const all = models.get(ctx.state)!;
  if (!all.has(repo.id))
    all.set(repo.id, {
      development: { refId: null, useDefault: true },
      production: null,
      types: Object.entries(names).map(([id, displayName]) => ({
        id,
        displayName,
        enabled: true,
        prefix: `${id.toLowerCase()}/`,
      })),
    });
  return all.get(repo.id)!;
}

const invalid = (message: string) =>
  bitbucketError(400, message, 'com.atlassian.bitbucket.validation.ArgumentValidationException');

export const branchModelRoutes: Record<string, DeclaredRoute> = {
  'branch-model-get': repoRoute('REPO_READ', (ctx, repo) => ({
    status: 200,
    body: branchModelOf(ctx, repo),
  })),
  'branch-model-set': repoRoute('REPO_ADMIN', (ctx, repo) => {
    const b = (ctx.body ?? {}) as Partial<FakeBranchModel>;
    if (!b.development || typeof b.development.useDefault !== 'boolean')
      return invalid('development: {refId, useDefault} is required.');
    if (!b.development.useDefault && !b.development.refId?.startsWith('refs/heads/'))
      return invalid('development.refId must be a branch when useDefault is false.');
    if (b.production && !b.production.useDefault && !b.production.refId?.startsWith('refs/heads/'))
      return invalid('production.refId must be a branch when useDefault is false.');
    if (!Array.isArray(b.types) || b.types.some((t) => !(t.id in names) || (t.enabled && !t.prefix)))
      return invalid(
        'types: each needs an id (BUGFIX, FEATURE, HOTFIX, RELEASE) and, when enabled, a prefix.',
      );
    const model: FakeBranchModel = {
      development: b.development,
      production: b.production ?? null,
      types: b.types.map((t) => ({ ...t, displayName: names[t.id] })),
    };
    branchModelOf(ctx, repo);
    models.get(ctx.state)!.set(repo.id, model);
    return { status: 200, body: model };
  }),
};
