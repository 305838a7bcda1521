// Branch restrictions (branch permissions) of projects and repositories: admins only (PROJECT_ADMIN / REPO_ADMIN).
// A POST for a type and matcher that already exist replaces that restriction, as the server does.
import { bitbucketError, page, type RouteContext } from '../route-types.ts';
import type { FakeState } from '../state.ts';
import { type DeclaredRoute, projectRoute, repoRoute } from './declared.ts';
import { userJson } from './pull-request-json.ts';

type Restriction = {
  id: number;
  type: string;
  matcher: { id: string; displayId?: string; type: { id: string } };
  users: string[];
  groups: string[];
};
const store = new WeakMap<FakeState, { next: number; byScope: Map<string, Restriction[]> }>();
const types = ['read-only', 'no-deletes', 'fast-forward-only', 'pull-request-only', 'no-creates'];
const validation = 'com.atlassian.bitbucket.validation.ArgumentValidationException';

function listOf(ctx: RouteContext, scope: string): Restriction[] {
  const s = store.get(ctx.state) ?? { next: 1, byScope: new Map() };
  store.set(ctx.state, s);
  const l = s.byScope.get(scope) ?? [];
  s.byScope.set(scope, l);
  return l;
}

function routes(scopeOf: (ctx: RouteContext) => string) {
  const json = (ctx: RouteContext, r: Restriction) => ({
    ...r,
    users: r.users.map((u) => userJson(u, ctx)),
    accessKeys: [],
  });
  const find = (ctx: RouteContext) => listOf(ctx, scopeOf(ctx)).find((r) => String(r.id) === ctx.params.id);
  const missing = (ctx: RouteContext) =>
    bitbucketError(
      404,
      `No restriction ${ctx.params.id}.`,
      'com.atlassian.bitbucket.permission.NoSuchRefRestrictionException',
    );
  return {
    list: (ctx: RouteContext) =>
      page(
        listOf(ctx, scopeOf(ctx)).map((r) => json(ctx, r)),
        ctx.query,
      ),
    get: (ctx: RouteContext) => {
      const r = find(ctx);
      return r ? { status: 200, body: json(ctx, r) } : missing(ctx);
    },
    create: (ctx: RouteContext) => {
      const b = (ctx.body ?? {}) as Partial<Restriction>;
      if (!types.includes(String(b.type)))
        return bitbucketError(400, `type: must be one of ${types.join(', ')}.`, validation);
      if (
        !b.matcher?.id ||
        !['BRANCH', 'PATTERN', 'MODEL_CATEGORY', 'MODEL_BRANCH'].includes(b.matcher.type?.id)
      )
        return bitbucketError(
          400,
          'matcher: a BRANCH, PATTERN, MODEL_CATEGORY or MODEL_BRANCH matcher is required.',
          validation,
        );
      const unknown = (b.users ?? []).filter((u) => !ctx.state.users.some((x) => x.name === u));
      if (unknown.length)
        return bitbucketError(400, `users: no such user ${unknown.join(', ')}.`, validation);
      const l = listOf(ctx, scopeOf(ctx));
      const same = l.find((r) => r.type === b.type && r.matcher.id === b.matcher!.id);
      const r: Restriction = {
        id: same?.id ?? store.get(ctx.state)!.next++,
        type: b.type!,
        matcher: b.matcher,
        users: b.users ?? [],
        groups: b.groups ?? [],
      };
      if (same) l[l.indexOf(same)] = r;
      else l.push(r);
      return { status: 200, body: json(ctx, r) };
    },
    remove: (ctx: RouteContext) => {
      const r = find(ctx);
      if (!r) return missing(ctx);
      const l = listOf(ctx, scopeOf(ctx));
      l.splice(l.indexOf(r), 1);
      return { status: 204 };
    },
  };
}

const project = routes((ctx) => ctx.params.projectKey.toUpperCase());
const repo = routes((ctx) => `${ctx.params.projectKey.toUpperCase()}/${ctx.params.repositorySlug}`);

/** Routes keyed by operationId, each with the permission Bitbucket requires. */
export const branchRestrictionRoutes: Record<string, DeclaredRoute> = {
  getRestrictions: projectRoute('PROJECT_ADMIN', project.list),
  createRestrictions: projectRoute('PROJECT_ADMIN', project.create),
  getRestriction: projectRoute('PROJECT_ADMIN', project.get),
  deleteRestriction: projectRoute('PROJECT_ADMIN', project.remove),
  getRestrictions_1: repoRoute('REPO_ADMIN', repo.list),
  createRestrictions_1: repoRoute('REPO_ADMIN', repo.create),
  getRestriction_1: repoRoute('REPO_ADMIN', repo.get),
  deleteRestriction_1: repoRoute('REPO_ADMIN', repo.remove),
};
