import type { HookEnableOutput } from '../../../../generated/types/cli/output/hook-enable.ts';
import { hooksPath, type RestHook, resolveHookKey, toHook } from '../../api/hooks.ts';
import { identify } from '../../api/identity.ts';
import { scopedNeeds } from '../../api/permission-check.ts';
import { scopeId, scopeLabel } from '../../api/scope.ts';
import { projectOption, projectScopeFlag, resolveScope } from '../../cli/scope.ts';
import { defineCommand } from '../../command.ts';
import { makePlan } from '../../output/plan.ts';

type Options = { key: string; project?: string };

/** `bbdc hook enable|disable <key>`: one command per direction, sharing everything else. */
export function hookToggleCommand(enable: boolean) {
  const verb = enable ? 'enable' : 'disable';
  return defineCommand<Options, HookEnableOutput>({
    name: `hook ${verb}`,
    summary: `${enable ? 'Enable' : 'Disable'} a hook or merge check on a repository or project`,
    description:
      'The key is the full hook key or its last part, e.g. force-push-hook. On a repository this overrides the project setting.',
    args: [{ name: 'key', required: true, description: 'Hook key, full or short (see `bbdc hook list`)' }],
    flags: { project: projectScopeFlag },
    outputSchema: `hook-${verb}`,
    effect: 'mutating',
    needs: scopedNeeds('REPO_ADMIN', 'changing hooks'),
    examples: [
      `bbdc hook ${verb} force-push-hook -R PROJ/api`,
      `bbdc hook ${verb} force-push-hook --project PROJ`,
    ],
    parse: ({ args, flags }) => ({ key: args[0], project: projectOption(flags.project) }),
    async plan(o, deps) {
      const { scope, host } = await resolveScope(deps, o.project);
      const client = await deps.client(host);
      const { username } = await identify(client, host.url);
      const key = await resolveHookKey(client, scope, o.key);
      const current = toHook(await client.get<RestHook>(hooksPath(scope, key)), scope);
      const same = current.enabled === enable && !current.inheritedFrom;
      const state = `${current.enabled ? 'enabled' : 'disabled'}${current.inheritedFrom ? ` (inherited from the ${current.inheritedFrom})` : ''}`;
      return makePlan({
        intent: `bbdc hook ${verb} ${o.key}${o.project ? ` --project ${o.project}` : ''}`,
        target: { type: 'hook', id: `${scopeId(scope)}:${key}`, host: host.url },
        action: {
          type: 'http',
          description: `${verb} hook ${current.shortKey} on ${scopeLabel(scope)}`,
          method: enable ? 'PUT' : 'DELETE',
          path: `${hooksPath(scope, key)}/enabled`,
        },
        predictedAction: same ? 'no-op' : 'update',
        reasons: [`authenticated as ${username}`, `${current.name} is ${state}`],
        blockingReasons: [],
      });
    },
    async run(o, deps) {
      const { scope, host } = await resolveScope(deps, o.project);
      const client = await deps.client(host);
      const key = await resolveHookKey(client, scope, o.key);
      const res = await client.request<RestHook>(
        enable ? 'PUT' : 'DELETE',
        `${hooksPath(scope, key)}/enabled`,
      );
      return { scope: { type: scope.type, id: scopeId(scope) }, hook: toHook(res.data, scope) };
    },
    human(d, ui) {
      ui.line(
        `${d.hook.enabled ? 'Enabled' : 'Disabled'} ${d.hook.name} (${d.hook.shortKey}) on ${d.scope.type} ${d.scope.id}`,
      );
    },
  });
}
