// Hook scripts (uploaded by a system admin) and their configuration on a repository: which triggers run them.
// Listing and changing a repository's configuration needs REPO_ADMIN, as the 9.4 document says.
import { bitbucketError, page, type RouteContext } from '../route-types.ts';
import type { FakeState } from '../state.ts';
import { type DeclaredRoute, repoRoute } from './declared.ts';

/** A hook script as the server stores it. */
export type FakeHookScript = { id: number; name: string; description: string; type: 'PRE' | 'POST' };

/** The scripts of every server, and the triggers each repository (by id) configured for each script. */
export const hookScripts: FakeHookScript[] = [
  { id: 1, name: 'no-secrets', description: 'Rejects pushes that add private keys', type: 'PRE' },
  { id: 2, name: 'notify-ops', description: 'Tells ops about merges', type: 'POST' },
];
const configs = new WeakMap<FakeState, Map<string, string[]>>();
const configsOf = (ctx: RouteContext) => {
  const all = configs.get(ctx.state) ?? new Map<string, string[]>();
  configs.set(ctx.state, all);
  return all;
};
const key = (repoId: number, scriptId: number) => `${repoId}:${scriptId}`;
const time = '2026-01-01T00:00:00.000Z';

function configJson(repoId: number, script: FakeHookScript, triggerIds: string[]) {
  return {
    scope: { resourceId: repoId, type: 'REPOSITORY' },
    script: {
      ...script,
      pluginKey: 'com.atlassian.bitbucket.server.bitbucket-hook-scripts',
      version: 1,
      createdDate: time,
      updatedDate: time,
    },
    triggerIds,
  };
}

function scriptOr404(ctx: RouteContext): FakeHookScript | ReturnType<typeof bitbucketError> {
  const script = hookScripts.find((s) => String(s.id) === ctx.params.scriptId);
  return script ?? bitbucketError(404, `Hook script ${ctx.params.scriptId} does not exist.`);
}

/** Routes keyed by operationId. */
export const hookScriptRoutes: Record<string, DeclaredRoute> = {
  getConfigurations_1: repoRoute('REPO_ADMIN', (ctx, repo) => {
    const all = configsOf(ctx);
    const configured = hookScripts.filter((s) => all.has(key(repo.id, s.id)));
    return page(
      configured.map((s) => configJson(repo.id, s, all.get(key(repo.id, s.id))!)),
      ctx.query,
    );
  }),
  setConfiguration_1: repoRoute('REPO_ADMIN', (ctx, repo) => {
    const script = scriptOr404(ctx);
    if ('status' in script) return script;
    const triggerIds = (ctx.body as { triggerIds?: unknown } | undefined)?.triggerIds;
    if (!Array.isArray(triggerIds) || !triggerIds.length || !triggerIds.every((t) => typeof t === 'string'))
      return bitbucketError(400, 'At least one trigger id is required.');
    configsOf(ctx).set(key(repo.id, script.id), [...new Set(triggerIds as string[])].sort());
    return { status: 200, body: configJson(repo.id, script, configsOf(ctx).get(key(repo.id, script.id))!) };
  }),
  removeConfiguration_1: repoRoute('REPO_ADMIN', (ctx, repo) => {
    const script = scriptOr404(ctx);
    if ('status' in script) return script;
    configsOf(ctx).delete(key(repo.id, script.id));
    return { status: 204 };
  }),
};
