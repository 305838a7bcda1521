// SSH key routes: your own keys (signed in), and access keys of projects (PROJECT_ADMIN) and repositories
// (REPO_ADMIN). A key already on the server is refused, as Bitbucket does.
import { type FakeSshKey, keysState, sshKeyJson } from '../keys-state.ts';
import { bitbucketError, page, type RouteContext, type RouteResult } from '../route-types.ts';
import { type DeclaredRoute, projectRoute, repoRoute, userRoute } from './declared.ts';

const validation = 'com.atlassian.bitbucket.validation.ArgumentValidationException';
const blob = (text: string) => text.trim().split(' ')[1];

function addKey(
  ctx: RouteContext,
  owner: string,
  text: unknown,
  label: unknown,
  permission?: string,
): RouteResult {
  if (typeof text !== 'string' || !/^(ssh-|ecdsa-|sk-)\S+ [A-Za-z0-9+/=]+/.test(text))
    return bitbucketError(400, 'text: The key is not a valid SSH public key.', validation);
  const k = keysState(ctx.state);
  if (
    k.ssh.some(
      (x) =>
        blob(x.text) === blob(text) &&
        (permission === undefined) === (x.permission === undefined) &&
        (permission === undefined || x.owner === owner),
    )
  )
    return bitbucketError(
      409,
      'This SSH key is already in use.',
      'com.atlassian.bitbucket.ssh.DuplicateSshKeyException',
    );
  const key: FakeSshKey = {
    id: k.nextId++,
    owner,
    text: text.trim(),
    ...(typeof label === 'string' && { label }),
    ...(permission && { permission }),
  };
  k.ssh.push(key);
  return { status: 201, body: permission ? accessJson(key) : sshKeyJson(key) };
}

const accessJson = (k: FakeSshKey) => ({ key: sshKeyJson(k), permission: k.permission });

function accessRoutes(scopeOf: (ctx: RouteContext) => string, levels: string[]) {
  const find = (ctx: RouteContext) =>
    keysState(ctx.state).ssh.find(
      (x) => x.permission && x.owner === scopeOf(ctx) && String(x.id) === ctx.params.keyId,
    );
  const missing = (ctx: RouteContext) =>
    bitbucketError(
      404,
      `No access key ${ctx.params.keyId} on ${scopeOf(ctx)}.`,
      'com.atlassian.bitbucket.ssh.NoSuchSshKeyException',
    );
  return {
    list: (ctx: RouteContext) =>
      page(
        keysState(ctx.state)
          .ssh.filter((x) => x.permission && x.owner === scopeOf(ctx))
          .map(accessJson),
        ctx.query,
      ),
    add: (ctx: RouteContext) => {
      const b = (ctx.body ?? {}) as { key?: { text?: unknown; label?: unknown }; permission?: string };
      if (!levels.includes(String(b.permission)))
        return bitbucketError(400, `permission: must be one of ${levels.join(', ')}.`, validation);
      return addKey(ctx, scopeOf(ctx), b.key?.text, b.key?.label, b.permission);
    },
    get: (ctx: RouteContext) => {
      const k = find(ctx);
      return k ? { status: 200, body: accessJson(k) } : missing(ctx);
    },
    remove: (ctx: RouteContext) => {
      const k = find(ctx);
      if (!k) return missing(ctx);
      const s = keysState(ctx.state);
      s.ssh = s.ssh.filter((x) => x !== k);
      return { status: 204 };
    },
  };
}

const project = accessRoutes((ctx) => ctx.params.projectKey.toUpperCase(), ['PROJECT_READ', 'PROJECT_WRITE']);
const repo = accessRoutes(
  (ctx) => `${ctx.params.projectKey.toUpperCase()}/${ctx.params.repositorySlug}`,
  ['REPO_READ', 'REPO_WRITE'],
);

/** Routes keyed by operationId, each with the permission Bitbucket requires. */
export const sshKeyRoutes: Record<string, DeclaredRoute> = {
  getSshKeys: userRoute((ctx) =>
    page(
      keysState(ctx.state)
        .ssh.filter((x) => !x.permission && x.owner === ctx.user!.name)
        .map(sshKeyJson),
      ctx.query,
    ),
  ),
  addSshKey: userRoute((ctx) => {
    const b = (ctx.body ?? {}) as { text?: unknown; label?: unknown };
    return addKey(ctx, ctx.user!.name, b.text, b.label);
  }),
  getSshKey: userRoute((ctx) => {
    const k = keysState(ctx.state).ssh.find(
      (x) => !x.permission && x.owner === ctx.user!.name && String(x.id) === ctx.params.keyId,
    );
    return k
      ? { status: 200, body: sshKeyJson(k) }
      : bitbucketError(
          404,
          `No SSH key ${ctx.params.keyId}.`,
          'com.atlassian.bitbucket.ssh.NoSuchSshKeyException',
        );
  }),
  deleteSshKey: userRoute((ctx) => {
    const s = keysState(ctx.state);
    const k = s.ssh.find(
      (x) => !x.permission && x.owner === ctx.user!.name && String(x.id) === ctx.params.keyId,
    );
    if (!k)
      return bitbucketError(
        404,
        `No SSH key ${ctx.params.keyId}.`,
        'com.atlassian.bitbucket.ssh.NoSuchSshKeyException',
      );
    s.ssh = s.ssh.filter((x) => x !== k);
    return { status: 204 };
  }),
  getSshKeysForProject: projectRoute('PROJECT_ADMIN', project.list),
  addForProject: projectRoute('PROJECT_ADMIN', project.add),
  getForProject: projectRoute('PROJECT_ADMIN', project.get),
  revokeForProject: projectRoute('PROJECT_ADMIN', project.remove),
  getForRepository_1: repoRoute('REPO_ADMIN', repo.list),
  addForRepository: repoRoute('REPO_ADMIN', repo.add),
  getForRepository: repoRoute('REPO_ADMIN', repo.get),
  revokeForRepository: repoRoute('REPO_ADMIN', repo.remove),
};
