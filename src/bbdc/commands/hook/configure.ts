import { isDeepStrictEqual } from 'node:util';
import type { HookConfigureOutput } from '../../../../generated/types/cli/output/hook-configure.ts';
import { UsageError } from '../../../core/errors.ts';
import type { BitbucketClient } from '../../api/client.ts';
import { hooksPath, resolveHookKey, shortHookKey } from '../../api/hooks.ts';
import { identify } from '../../api/identity.ts';
import { scopedNeeds } from '../../api/permission-check.ts';
import { type Scope, scopeId, scopeLabel } from '../../api/scope.ts';
import { projectOption, projectScopeFlag, resolveScope } from '../../cli/scope.ts';
import { defineCommand } from '../../command.ts';
import { makePlan } from '../../output/plan.ts';

type Settings = Record<string, unknown>;
type Options = { key: string; project?: string; settings?: Settings; set: [string, unknown][] };

/** Parses `--set key=value`: the value as JSON when it is valid JSON (numbers, booleans, lists), else as text. */
export function parseAssignment(text: string): [string, unknown] {
  const eq = text.indexOf('=');
  if (eq < 1) throw new UsageError(`--set "${text}" must be KEY=VALUE, e.g. --set requiredCount=2`);
  const raw = text.slice(eq + 1);
  try {
    return [text.slice(0, eq), JSON.parse(raw)];
  } catch {
    return [text.slice(0, eq), raw];
  }
}

function parseSettings(value: unknown): Settings | undefined {
  if (value === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(String(value));
  } catch (error) {
    throw new UsageError(
      `--settings is not valid JSON (${(error as Error).message}); pass an object, e.g. '{"requiredCount":2}'`,
    );
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new UsageError('--settings must be a JSON object, e.g. \'{"requiredCount":2}\'');
  return parsed as Settings;
}

async function currentSettings(client: BitbucketClient, scope: Scope, key: string): Promise<Settings> {
  return (await client.get<Settings | undefined>(`${hooksPath(scope, key)}/settings`)) ?? {};
}

/** The settings to store: --settings replaces them all, --set changes single keys of the current ones. */
function desired(o: Options, current: Settings): Settings {
  const next: Settings = { ...(o.settings ?? current) };
  for (const [k, v] of o.set) next[k] = v;
  return next;
}

/** `bbdc hook configure <key>`: replaces (--settings) or edits (--set) a hook's settings. */
export const command = defineCommand<Options, HookConfigureOutput>({
  name: 'hook configure',
  summary: "Set a hook's settings on a repository or project",
  description:
    'The settings are a JSON object whose keys the hook defines. --settings replaces them all; --set KEY=VALUE changes one key of the current settings (VALUE is read as JSON when it is valid JSON, else as text).',
  args: [{ name: 'key', required: true, description: 'Hook key, full or short (see `bbdc hook list`)' }],
  flags: {
    project: projectScopeFlag,
    settings: { type: 'string', value: 'JSON', description: 'The complete settings object' },
    set: {
      type: 'string',
      isMultiple: true,
      value: 'KEY=VALUE',
      description: 'Change one setting (repeatable)',
    },
  },
  outputSchema: 'hook-configure',
  effect: 'mutating',
  needs: scopedNeeds('REPO_ADMIN', 'configuring hooks'),
  examples: [
    'bbdc hook configure requiredApproversMergeHook --set requiredCount=2 -R PROJ/api',
    `bbdc hook configure com.example:my-hook --settings '{"branches":"main"}' --project PROJ`,
  ],
  parse: ({ args, flags }) => {
    const set = ((flags.set as string[] | undefined) ?? []).map(parseAssignment);
    const settings = parseSettings(flags.settings);
    if (!settings && set.length === 0)
      throw new UsageError('pass --settings JSON or at least one --set KEY=VALUE');
    return { key: args[0], project: projectOption(flags.project), settings, set };
  },
  async plan(o, deps) {
    const { scope, host } = await resolveScope(deps, o.project);
    const client = await deps.client(host);
    const { username } = await identify(client, host.url);
    const key = await resolveHookKey(client, scope, o.key);
    const current = await currentSettings(client, scope, key);
    const next = desired(o, current);
    return makePlan({
      intent: `bbdc hook configure ${o.key}`,
      target: { type: 'hook', id: `${scopeId(scope)}:${key}`, host: host.url },
      action: {
        type: 'http',
        description: `set the settings of hook ${shortHookKey(key)} on ${scopeLabel(scope)}`,
        method: 'PUT',
        path: `${hooksPath(scope, key)}/settings`,
        body: next,
      },
      predictedAction: isDeepStrictEqual(current, next) ? 'no-op' : 'update',
      reasons: [`authenticated as ${username}`, `current settings: ${JSON.stringify(current)}`],
      blockingReasons: [],
    });
  },
  async run(o, deps) {
    const { scope, host } = await resolveScope(deps, o.project);
    const client = await deps.client(host);
    const key = await resolveHookKey(client, scope, o.key);
    const next =
      o.settings && o.set.length === 0 ? o.settings : desired(o, await currentSettings(client, scope, key));
    const res = await client.request<Settings | undefined>('PUT', `${hooksPath(scope, key)}/settings`, {
      body: next,
    });
    return { scope: { type: scope.type, id: scopeId(scope) }, key, settings: res.data ?? next };
  },
  human(d, ui) {
    ui.line(`Configured ${shortHookKey(d.key)} on ${d.scope.type} ${d.scope.id}:`);
    const entries = Object.entries(d.settings);
    if (entries.length === 0) ui.line('(no settings)');
    else
      ui.table(
        ['setting', 'value'],
        entries.map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
      );
  },
});
