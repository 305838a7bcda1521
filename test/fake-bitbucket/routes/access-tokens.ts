// HTTP access token routes for users (only yourself), projects (PROJECT_ADMIN) and repositories (REPO_ADMIN).
// A created user token authenticates as that user at once, as on the server.
import { createHash } from 'node:crypto';
import { type FakeToken, keysState } from '../keys-state.ts';
import { bitbucketError, page, type RouteContext, type RouteResult } from '../route-types.ts';
import { type DeclaredRoute, projectRoute, repoRoute, userRoute } from './declared.ts';

const validation = 'com.atlassian.bitbucket.validation.ArgumentValidationException';
const permissionPattern = /^(REPO|PROJECT)_(READ|WRITE|ADMIN)$/;

function json(t: FakeToken) {
  return {
    id: t.id,
    name: t.name,
    createdDate: t.createdDate,
    ...(t.expiryDays && { expiryDays: t.expiryDays, expiryDate: t.createdDate + t.expiryDays * 86_400_000 }),
    permissions: t.permissions,
    user: { name: t.user },
  };
}

function routes(scopeOf: (ctx: RouteContext) => string) {
  const find = (ctx: RouteContext) =>
    keysState(ctx.state).tokens.find((t) => t.scope === scopeOf(ctx) && t.id === ctx.params.tokenId);
  const missing = (ctx: RouteContext) =>
    bitbucketError(
      404,
      `No access token ${ctx.params.tokenId}.`,
      'com.atlassian.bitbucket.auth.NoSuchAccessTokenException',
    );
  const check = (
    b: { name?: unknown; permissions?: unknown; expiryDays?: unknown },
    create: boolean,
  ): RouteResult | undefined => {
    if (create && (typeof b.name !== 'string' || !b.name))
      return bitbucketError(400, 'name: A name is required.', validation);
    if (
      b.permissions !== undefined &&
      (!Array.isArray(b.permissions) ||
        !b.permissions.length ||
        !b.permissions.every((p) => permissionPattern.test(String(p))))
    )
      return bitbucketError(
        400,
        'permissions: must be a non-empty list of REPO_* or PROJECT_* permissions.',
        validation,
      );
    if (create && b.permissions === undefined)
      return bitbucketError(400, 'permissions: at least one is required.', validation);
    return undefined;
  };
  return {
    list: (ctx: RouteContext) =>
      page(
        keysState(ctx.state)
          .tokens.filter((t) => t.scope === scopeOf(ctx))
          .map(json),
        ctx.query,
      ),
    get: (ctx: RouteContext) => {
      const t = find(ctx);
      return t ? { status: 200, body: json(t) } : missing(ctx);
    },
    create: (ctx: RouteContext) => {
      const b = (ctx.body ?? {}) as { name?: string; permissions?: string[]; expiryDays?: number };
      const bad = check(b, true);
      if (bad) return bad;
      const k = keysState(ctx.state);
      const id = String(252_973_515_000 + k.nextId++);
      const secret = createHash('sha256').update(`${id}:${b.name}`).digest('base64url').slice(0, 44);
      const t: FakeToken = {
        id,
        scope: scopeOf(ctx),
        name: b.name!,
        permissions: b.permissions!,
        createdDate: 1_700_000_000_000,
        ...(b.expiryDays && { expiryDays: b.expiryDays }),
        secret,
        user: ctx.user!.name,
      };
      k.tokens.push(t);
      if (t.scope === `users/${ctx.user!.slug}`) ctx.user!.tokens.push(secret);
      return { status: 200, body: { ...json(t), token: secret } };
    },
    update: (ctx: RouteContext) => {
      const t = find(ctx);
      if (!t) return missing(ctx);
      const b = (ctx.body ?? {}) as { name?: string; permissions?: string[]; expiryDays?: number };
      const bad = check(b, false);
      if (bad) return bad;
      if (b.name) t.name = b.name;
      if (b.permissions) t.permissions = b.permissions;
      if (b.expiryDays) t.expiryDays = b.expiryDays;
      return { status: 200, body: json(t) };
    },
    remove: (ctx: RouteContext) => {
      const t = find(ctx);
      if (!t) return missing(ctx);
      const k = keysState(ctx.state);
      k.tokens = k.tokens.filter((x) => x !== t);
      for (const u of ctx.state.users) u.tokens = u.tokens.filter((s) => s !== t.secret);
      return { status: 204 };
    },
  };
}

// Your own tokens only: another user's slug is refused as Bitbucket refuses non-admins.
function self(handle: (ctx: RouteContext) => RouteResult) {
  return userRoute((ctx) =>
    ctx.params.userSlug === ctx.user!.slug
      ? handle(ctx)
      : bitbucketError(
          403,
          'You can only manage your own access tokens.',
          'com.atlassian.bitbucket.AuthorisationException',
        ),
  );
}

const user = routes((ctx) => `users/${ctx.params.userSlug}`);
const project = routes((ctx) => `projects/${ctx.params.projectKey.toUpperCase()}`);
const repo = routes(
  (ctx) => `projects/${ctx.params.projectKey.toUpperCase()}/repos/${ctx.params.repositorySlug}`,
);

/** Routes keyed by operationId, each with the permission Bitbucket requires. */
export const accessTokenRoutes: Record<string, DeclaredRoute> = {
  getAllAccessTokens_2: self(user.list),
  createAccessToken_2: self(user.create),
  getById_2: self(user.get),
  updateAccessToken_2: self(user.update),
  deleteById_2: self(user.remove),
  getAllAccessTokens: projectRoute('PROJECT_ADMIN', project.list),
  createAccessToken: projectRoute('PROJECT_ADMIN', project.create),
  getById: projectRoute('PROJECT_ADMIN', project.get),
  updateAccessToken: projectRoute('PROJECT_ADMIN', project.update),
  deleteById: projectRoute('PROJECT_ADMIN', project.remove),
  getAllAccessTokens_1: repoRoute('REPO_ADMIN', repo.list),
  createAccessToken_1: repoRoute('REPO_ADMIN', repo.create),
  getById_1: repoRoute('REPO_ADMIN', repo.get),
  updateAccessToken_1: repoRoute('REPO_ADMIN', repo.update),
  deleteById_1: repoRoute('REPO_ADMIN', repo.remove),
};
