// The sections a create call carries beside Keycloak's own (realm-template.ts): Keycloak's import of a realm that
// lists flows, required actions or client scopes keeps only what is listed, so the body lists Keycloak's built-in
// ones with the declared ones. Each section is recorded as its step records it (the flows' and scopes' ledgers are
// desired attributes already; the required actions' settings from before the spec come from the template), so the
// next resync writes nothing. What the import cannot check as the steps do (an alias or name Keycloak's own items
// take, an unknown required action, a link to a scope that does not exist) is left to the step, which refuses it
// naming the field.
import type { IdentityRealm } from '../../../../generated/types/crds/identityrealm.ts';
import { canonicalJson } from '../../runtime/desired-state.ts';
import type { RealmTemplate } from '../realm-template.ts';
import { clientScopeItem } from './client-scopes.ts';
import type { Item } from './collection.ts';
import { requiredActionsBefore, settingsOf } from './required-actions.ts';

type Spec = IdentityRealm['spec'];
type FlowSpec = NonNullable<Spec['authenticationFlows']>[number];

/** Whether a new realm's create call would carry any of these sections (Keycloak's own are worth reading). */
export const declaresBuiltInSections = (spec: Spec) =>
  Boolean(
    spec.authenticationFlows?.length ||
      spec.requiredActions?.length ||
      spec.clientScopes?.length ||
      spec.realmDefaultClientScopes?.default?.length ||
      spec.realmDefaultClientScopes?.optional?.length,
  );

/** Whether the create call carries the flows and required actions (and so the realm update that binds and
 * records them is not needed). */
export function carriesFlowsAndActions(spec: Spec, template: RealmTemplate | undefined): boolean {
  if (!template) return false;
  const flows = spec.authenticationFlows ?? [];
  const taken = new Set(template.authenticationFlows.map((f) => String(f.alias)));
  const configs = new Set(template.authenticatorConfig.map((c) => String(c.alias)));
  const actions = new Set(template.requiredActions.map((a) => String(a.alias)));
  return (
    flows.every((f) => !taken.has(f.alias)) &&
    flows.every((f) =>
      (f.executions ?? []).every((e) => !e.authenticatorConfig || !configs.has(e.authenticatorConfig.alias)),
    ) &&
    (spec.requiredActions ?? []).every((a) => actions.has(a.alias))
  );
}

/** Whether the create call carries the client scopes with their mappers and the realm's scope links. */
export function carriesClientScopes(spec: Spec, template: RealmTemplate | undefined): boolean {
  if (!template) return false;
  const own = new Set(template.clientScopes.map((s) => String(s.name)));
  const declared = (spec.clientScopes ?? []).map((s) => s.name);
  const links = spec.realmDefaultClientScopes ?? {};
  const both = (links.default ?? []).filter((n) => links.optional?.includes(n));
  return (
    declared.every((n) => !own.has(n)) &&
    [...(links.default ?? []), ...(links.optional ?? [])].every((n) => own.has(n) || declared.includes(n)) &&
    !both.length
  );
}

/** A declared flow (top-level or sub-flow) as Keycloak's import takes it. */
function flowRepresentation(flow: FlowSpec, all: readonly FlowSpec[]): Item {
  return {
    alias: flow.alias,
    description: flow.description ?? '',
    providerId: flow.providerId ?? 'basic-flow',
    topLevel: flow.topLevel !== false,
    builtIn: false,
    authenticationExecutions: (flow.executions ?? []).map((e, i) => {
      const sub = e.subFlow ? all.find((f) => f.alias === e.subFlow) : undefined;
      return {
        ...(sub
          ? {
              authenticatorFlow: true,
              flowAlias: sub.alias,
              // As the operator's step adds a form sub-flow (flow-replacement.ts).
              ...(sub.providerId === 'form-flow' ? { authenticator: 'registration-page-form' } : {}),
            }
          : { authenticator: e.authenticator, authenticatorFlow: false }),
        ...(e.authenticatorConfig ? { authenticatorConfig: e.authenticatorConfig.alias } : {}),
        requirement: e.requirement,
        priority: (i + 1) * 10,
        userSetupAllowed: false,
      };
    }),
  };
}

/** The flows, their configs and the required actions (each section only when declared): Keycloak's own with the
 * declared ones, and the record of each declared action's settings from before the spec (required-actions.ts). */
function flowsAndActions(spec: Spec, template: RealmTemplate): { body: Item; attributes: Item } {
  const flows = spec.authenticationFlows ?? [];
  const declared = new Map((spec.requiredActions ?? []).map((a) => [a.alias, a]));
  const before: Record<string, unknown> = {};
  const requiredActions = template.requiredActions.map((a) => {
    const action = declared.get(String(a.alias));
    if (!action) return a;
    before[action.alias] = settingsOf(a);
    const set = { enabled: action.enabled, defaultAction: action.defaultAction, priority: action.priority };
    return { ...a, ...Object.fromEntries(Object.entries(set).filter(([, v]) => v !== undefined)) };
  });
  const configs = flows.flatMap((f) =>
    (f.executions ?? []).flatMap((e) =>
      e.authenticatorConfig
        ? [{ alias: e.authenticatorConfig.alias, config: e.authenticatorConfig.config ?? {} }]
        : [],
    ),
  );
  return {
    body: {
      ...(flows.length
        ? {
            authenticationFlows: [
              ...template.authenticationFlows,
              ...flows.map((f) => flowRepresentation(f, flows)),
            ],
            authenticatorConfig: [...template.authenticatorConfig, ...configs],
            ...template.bindings,
          }
        : {}),
      ...(declared.size ? { requiredActions } : {}),
    },
    attributes: Object.keys(before).length ? { [requiredActionsBefore]: canonicalJson(before) } : {},
  };
}

/** The client scopes (Keycloak's own, then the declared ones with their mappers), Keycloak's role scope mappings
 * of its scopes, and the realm's scope links:
 * Keycloak's, a declared link added and moved from the other list as the step's link would move it. */
function clientScopesSection(spec: Spec, template: RealmTemplate): Item {
  const links = spec.realmDefaultClientScopes ?? {};
  const linked = (own: readonly string[], mine: readonly string[] = [], other: readonly string[] = []) => [
    ...new Set([...own.filter((n) => !other.includes(n)), ...mine]),
  ];
  const declared = (spec.clientScopes ?? []).map((scope) => ({
    ...clientScopeItem(scope),
    protocolMappers: (scope.protocolMappers ?? []).map((m) => ({
      name: m.name,
      protocol: m.protocol ?? 'openid-connect',
      protocolMapper: m.protocolMapper,
      config: m.config ?? {},
    })),
  }));
  return {
    clientScopes: [...template.clientScopes, ...declared],
    scopeMappings: template.scopeMappings,
    defaultDefaultClientScopes: linked(template.defaultDefaultClientScopes, links.default, links.optional),
    defaultOptionalClientScopes: linked(template.defaultOptionalClientScopes, links.optional, links.default),
  };
}

/** What the create call carries of these sections (`body`: the representation's fields; `attributes`: entries of
 * the realm's record; `fields`: the spec fields, named when Keycloak refuses the create). */
export function builtInSections(spec: Spec, template: RealmTemplate | undefined) {
  const flows =
    carriesFlowsAndActions(spec, template) && template ? flowsAndActions(spec, template) : undefined;
  const links = spec.realmDefaultClientScopes ?? {};
  const scopes =
    carriesClientScopes(spec, template) &&
    template &&
    (spec.clientScopes?.length || links.default?.length || links.optional?.length)
      ? clientScopesSection(spec, template)
      : undefined;
  const named = (field: string, on: unknown) => (on ? [field] : []);
  return {
    body: { ...flows?.body, ...scopes },
    attributes: flows?.attributes ?? {},
    fields: [
      ...named('spec.authenticationFlows', flows?.body.authenticationFlows),
      ...named('spec.requiredActions', flows?.body.requiredActions),
      ...named('spec.clientScopes', scopes && spec.clientScopes?.length),
      ...named('spec.realmDefaultClientScopes', scopes && (links.default?.length || links.optional?.length)),
    ],
  };
}
