// Routes that list, grant and revoke project and repository permissions for users and groups.
import { coreOf, grantsOf } from '../core-state.ts';
import {
  bitbucketError,
  page,
  type RouteContext,
  type RouteResult,
  type RouteTable,
} from '../route-types.ts';
import { isResult, needProject, needRepo, projectOr404, repoOr404 } from './lookup.ts';

type Kind = 'users' | 'groups';
type Scope = { id: string; levels: string[]; deny?: RouteResult };

const projectLevels = ['PROJECT_READ', 'PROJECT_WRITE', 'PROJECT_ADMIN'];
const repoLevels = ['REPO_READ', 'REPO_WRITE', 'REPO_ADMIN'];

function projectScope(ctx: RouteContext): Scope | RouteResult {
  const p = projectOr404(ctx);
  if (isResult(p)) return p;
  return { id: p.key, levels: projectLevels, deny: needProject(ctx, p, 'PROJECT_ADMIN') };
}

function repoScope(ctx: RouteContext): Scope | RouteResult {
  const r = repoOr404(ctx);
  if (isResult(r)) return r;
  return { id: `${r.projectKey}/${r.slug}`, levels: repoLevels, deny: needRepo(ctx, r, 'REPO_ADMIN') };
}

function entryJson(ctx: RouteContext, kind: Kind, name: string, permission: string) {
  if (kind === 'groups') return { group: { name }, permission };
  const u = ctx.state.users.find((x) => x.name === name)!;
  return {
    user: {
      name: u.name,
      slug: u.slug,
      displayName: u.displayName,
      emailAddress: u.email,
      type: 'NORMAL',
      active: true,
    },
    permission,
  };
}

function list(scopeOf: (ctx: RouteContext) => Scope | RouteResult, kind: Kind) {
  return {
    auth: 'required' as const,
    handle: (ctx: RouteContext) => {
      const scope = scopeOf(ctx);
      if (isResult(scope)) return scope;
      if (scope.deny) return scope.deny;
      const filter = ctx.query.get('filter')?.toLowerCase();
      const entries = [...grantsOf(ctx.state, scope.id)[kind]]
        .filter(([name]) => !filter || name.toLowerCase().includes(filter))
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([name, permission]) => entryJson(ctx, kind, name, permission));
      return page(entries, ctx.query);
    },
  };
}

function exists(ctx: RouteContext, kind: Kind, name: string): RouteResult | undefined {
  const known =
    kind === 'users' ? ctx.state.users.some((u) => u.name === name) : coreOf(ctx.state).groups.has(name);
  if (known) return undefined;
  return kind === 'users'
    ? bitbucketError(404, `User ${name} does not exist.`, 'com.atlassian.bitbucket.user.NoSuchUserException')
    : bitbucketError(
        404,
        `Group ${name} does not exist.`,
        'com.atlassian.bitbucket.user.NoSuchGroupException',
      );
}

function grant(scopeOf: (ctx: RouteContext) => Scope | RouteResult, kind: Kind) {
  return {
    auth: 'required' as const,
    handle: (ctx: RouteContext) => {
      const scope = scopeOf(ctx);
      if (isResult(scope)) return scope;
      if (scope.deny) return scope.deny;
      const permission = ctx.query.get('permission') ?? '';
      if (!scope.levels.includes(permission))
        return bitbucketError(400, `permission: ${permission} is not one of ${scope.levels.join(', ')}.`);
      const names = ctx.query.getAll('name');
      for (const name of names) {
        const missing = exists(ctx, kind, name);
        if (missing) return missing;
      }
      for (const name of names) grantsOf(ctx.state, scope.id)[kind].set(name, permission);
      return { status: 204 };
    },
  };
}

function revoke(scopeOf: (ctx: RouteContext) => Scope | RouteResult, kind: Kind) {
  return {
    auth: 'required' as const,
    handle: (ctx: RouteContext) => {
      const scope = scopeOf(ctx);
      if (isResult(scope)) return scope;
      if (scope.deny) return scope.deny;
      const name = ctx.query.get('name') ?? '';
      const missing = exists(ctx, kind, name);
      if (missing) return missing;
      grantsOf(ctx.state, scope.id)[kind].delete(name);
      return { status: 204 };
    },
  };
}

function groupsWithout(scopeOf: (ctx: RouteContext) => Scope | RouteResult) {
  return {
    auth: 'required' as const,
    handle: (ctx: RouteContext) => {
      const scope = scopeOf(ctx);
      if (isResult(scope)) return scope;
      if (scope.deny) return scope.deny;
      const filter = ctx.query.get('filter')?.toLowerCase();
      const granted = grantsOf(ctx.state, scope.id).groups;
      const names = [...coreOf(ctx.state).groups.keys()]
        .filter((g) => !granted.has(g) && (!filter || g.toLowerCase().includes(filter)))
        .sort();
      return page(
        names.map((name) => ({ name, deletable: true })),
        ctx.query,
      );
    },
  };
}

/** Project (`_1`) and repository (`_2` and unsuffixed) permission operations. */
export const permissionRoutes: RouteTable = {
  getUsersWithAnyPermission_1: list(projectScope, 'users'),
  getGroupsWithAnyPermission_1: list(projectScope, 'groups'),
  setPermissionForUsers_1: grant(projectScope, 'users'),
  setPermissionForGroups_1: grant(projectScope, 'groups'),
  revokePermissionsForUser_1: revoke(projectScope, 'users'),
  revokePermissionsForGroup_1: revoke(projectScope, 'groups'),
  getGroupsWithoutAnyPermission_1: groupsWithout(projectScope),
  getUsersWithAnyPermission_2: list(repoScope, 'users'),
  getGroupsWithAnyPermission_2: list(repoScope, 'groups'),
  setPermissionForUser: grant(repoScope, 'users'),
  setPermissionForGroup: grant(repoScope, 'groups'),
  revokePermissionsForUser_2: revoke(repoScope, 'users'),
  revokePermissionsForGroup_2: revoke(repoScope, 'groups'),
  getGroupsWithoutAnyPermission_2: groupsWithout(repoScope),
};
