// Authentication flows (the ones the realm made, not Keycloak's built-in ones, which are noted when changed) and
// required actions (Keycloak's, declared only where they differ from a new realm's settings).
import { compact, type ImportContext, type Json, listAt, type RealmSpec, same } from './context.ts';
import { noteChanged } from './keycloak-defaults.ts';

type Flow = NonNullable<RealmSpec['authenticationFlows']>[number];
type Action = NonNullable<RealmSpec['requiredActions']>[number];

export const authenticationKeys = ['authenticationFlows', 'authenticatorConfig', 'requiredActions'];

export function importAuthentication(exp: Json, ctx: ImportContext): Partial<RealmSpec> {
  const builtIn = new Map(listAt(ctx.defaults.authenticationFlows).map((f) => [String(f.alias), f]));
  const configs = new Map(listAt(exp.authenticatorConfig).map((c) => [String(c.alias), c]));
  const defaultConfigs = new Map(listAt(ctx.defaults.authenticatorConfig).map((c) => [String(c.alias), c]));
  const flows: Flow[] = [];
  const usedConfigs = new Set<string>();
  for (const flow of listAt(exp.authenticationFlows)) {
    const alias = String(flow.alias);
    const known = builtIn.get(alias);
    if (known && flow.builtIn !== false) {
      noteChanged(ctx, `authenticationFlows[${alias}]`, flow, known);
      for (const e of listAt(flow.authenticationExecutions))
        if (e.authenticatorConfig) usedConfigs.add(String(e.authenticatorConfig));
      continue;
    }
    const executions = listAt(flow.authenticationExecutions)
      .sort((a, b) => Number(a.priority ?? 0) - Number(b.priority ?? 0))
      .map((e) => {
        const configAlias = e.authenticatorConfig ? String(e.authenticatorConfig) : undefined;
        const config = configAlias ? configs.get(configAlias) : undefined;
        if (configAlias) usedConfigs.add(configAlias);
        return compact({
          authenticator: e.authenticatorFlow ? undefined : e.authenticator,
          subFlow: e.authenticatorFlow ? e.flowAlias : undefined,
          requirement: e.requirement,
          authenticatorConfig: configAlias
            ? compact({ alias: configAlias, config: config?.config as Json | undefined })
            : undefined,
        });
      });
    flows.push(
      compact({
        alias,
        description: flow.description || undefined,
        providerId: flow.providerId && flow.providerId !== 'basic-flow' ? flow.providerId : undefined,
        topLevel: flow.topLevel === false ? false : undefined,
        executions,
      }) as Flow,
    );
  }
  for (const [alias, c] of configs) {
    const known = defaultConfigs.get(alias);
    if (known) noteChanged(ctx, `authenticatorConfig[${alias}]`, c, known);
    else if (!usedConfigs.has(alias))
      ctx.note(`authenticatorConfig[${alias}]`, 'a config no execution uses has no field');
  }
  return compact({
    authenticationFlows: flows,
    requiredActions: importRequiredActions(exp, ctx),
  }) as Partial<RealmSpec>;
}

const settings = ['enabled', 'defaultAction', 'priority'] as const;

/** Each action whose settings differ from a new realm's, with only the settings that differ. */
function importRequiredActions(exp: Json, ctx: ImportContext): Action[] {
  const before = new Map(listAt(ctx.defaults.requiredActions).map((a) => [String(a.alias), a]));
  const out: Action[] = [];
  for (const action of listAt(exp.requiredActions)) {
    const alias = String(action.alias);
    const known = before.get(alias) ?? { enabled: false, defaultAction: false, priority: 0 };
    const changed = Object.fromEntries(
      settings.filter((k) => k in action && !same(action[k], known[k])).map((k) => [k, action[k]]),
    );
    if (Object.keys(changed).length) out.push({ alias, ...changed } as Action);
    const config = action.config as Json | undefined;
    if (config && Object.keys(config).length && !same(config, (known as Json).config ?? {}))
      ctx.note(`requiredActions[${alias}].config`, "a required action's config is not managed by the CRD");
  }
  return out;
}
