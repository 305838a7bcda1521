// A client's authorization services (spec.authorization) compiled to what Keycloak keeps: the resource server's
// settings, and its scopes, resources, policies and permissions as collection items. Pure. Policies and permissions
// are read back in Keycloak's export form (GET .../resource-server/settings names roles, resources, scopes and
// policies instead of their ids) and written through the typed endpoints (POST .../policy/<type>), which accept
// names too; so each item carries both: the export form, compared, and `send`, the typed body.
import type { IdentityClient } from '../../../generated/types/crds/identityclient.ts';

type Authorization = NonNullable<IdentityClient['spec']['authorization']>;
type Policy = NonNullable<Authorization['policies']>[number];
type Permission = NonNullable<Authorization['permissions']>[number];
type Item = Record<string, unknown>;

/** The resource server's own settings, at Keycloak's defaults where the spec leaves them out. */
export function resourceServerSettings(a: Authorization) {
  return {
    policyEnforcementMode: a.policyEnforcementMode ?? 'ENFORCING',
    decisionStrategy: a.decisionStrategy ?? 'UNANIMOUS',
    allowRemoteResourceManagement: a.allowRemoteResourceManagement ?? false,
  };
}

export const scopeItem = (s: NonNullable<Authorization['scopes']>[number]): Item => ({
  name: s.name,
  displayName: s.displayName ?? '',
  iconUri: s.iconUri ?? '',
});

export const resourceItem = (r: NonNullable<Authorization['resources']>[number]): Item => ({
  name: r.name,
  displayName: r.displayName ?? '',
  type: r.type ?? '',
  uris: [...(r.uris ?? [])].sort(),
  scopes: [...(r.scopes ?? [])].sort().map((name) => ({ name })),
  ownerManagedAccess: r.ownerManagedAccess ?? false,
  attributes: { ...r.attributes },
});

const sorted = (v: readonly string[] | undefined) => [...(v ?? [])].sort();
const json = (v: unknown) => JSON.stringify(v);
const text = (v: string | number | boolean | undefined) => (v === undefined ? '' : String(v));

/** A time policy's numeric fields (its dates, notBefore and notOnOrAfter, are text). */
export const timeNumbers = [
  'dayMonth',
  'dayMonthEnd',
  'month',
  'monthEnd',
  'year',
  'yearEnd',
  'hour',
  'hourEnd',
  'minute',
  'minuteEnd',
];

/** The config keys Keycloak's export gives each type, with the value a key left out stands for. */
const configKeys: Record<string, Record<string, string>> = {
  role: { roles: '[]', fetchRoles: 'false' },
  group: { groups: '[]', groupsClaim: '' },
  client: { clients: '[]' },
  user: { users: '[]' },
  'client-scope': { clientScopes: '[]' },
  time: Object.fromEntries(['notBefore', 'notOnOrAfter', ...timeNumbers].map((k) => [k, ''])),
  regex: { targetClaim: '', pattern: '', targetContextAttributes: 'false' },
  aggregate: { applyPolicies: '[]' },
  resource: { resources: '[]', applyPolicies: '[]' },
  scope: { resources: '[]', scopes: '[]', applyPolicies: '[]' },
};

/** A JSON list value in a normal form: parsed, entries with defaults filled (`required: false`), sorted. */
function normalList(raw: string): unknown {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return raw;
  }
  if (!Array.isArray(parsed)) return parsed;
  const entries = parsed.map((e) => {
    if (!e || typeof e !== 'object') return e;
    const o = e as Item;
    return 'path' in o
      ? { path: o.path, extendChildren: o.extendChildren ?? false }
      : { id: o.id, required: o.required ?? false };
  });
  return entries.sort((x, y) => json(x).localeCompare(json(y)));
}

/** A policy's config as compared: the type's known keys only (Keycloak adds others of its own), defaults filled
 * in, JSON lists parsed and sorted. */
export function canonicalConfig(type: string, config: Record<string, unknown> | undefined): Item {
  const keys = configKeys[type] ?? {};
  return Object.fromEntries(
    Object.entries(keys).map(([k, empty]) => {
      const raw = String(config?.[k] ?? empty) || empty;
      return [k, empty === '[]' ? normalList(raw) : raw];
    }),
  );
}

/** The typed body (POST/PUT .../policy/<type>) and the export config of a policy. */
function policyParts(p: Policy): { send: Item; config: Record<string, string> } {
  const roles = (p.roles ?? []).map((r) => ({ id: r.role, required: r.required ?? false }));
  const groups = (p.groups ?? []).map((g) => ({ path: g.path, extendChildren: g.extendChildren ?? false }));
  const scopes = (p.clientScopes ?? []).map((s) => ({ id: s.scope, required: s.required ?? false }));
  const t = p.time ?? {};
  const time = Object.fromEntries(Object.entries(t).map(([k, v]) => [k, text(v)]));
  const byType: Record<string, [Item, Record<string, string>]> = {
    role: [
      { roles, fetchRoles: p.fetchRoles ?? false },
      { roles: json(roles), fetchRoles: text(p.fetchRoles ?? false) },
    ],
    group: [
      { groups, ...(p.groupsClaim ? { groupsClaim: p.groupsClaim } : {}) },
      { groups: json(groups), groupsClaim: p.groupsClaim ?? '' },
    ],
    client: [{ clients: sorted(p.clients) }, { clients: json(sorted(p.clients)) }],
    user: [{ users: sorted(p.users) }, { users: json(sorted(p.users)) }],
    'client-scope': [{ clientScopes: scopes }, { clientScopes: json(scopes) }],
    time: [time, time],
    regex: [
      { ...p.regex, targetContextAttributes: p.regex?.targetContextAttributes ?? false },
      {
        targetClaim: p.regex?.targetClaim ?? '',
        pattern: p.regex?.pattern ?? '',
        targetContextAttributes: text(p.regex?.targetContextAttributes ?? false),
      },
    ],
    aggregate: [{ policies: sorted(p.policies) }, { applyPolicies: json(sorted(p.policies)) }],
  };
  const [send, config] = byType[p.type] ?? [{}, {}];
  return { send, config };
}

/** A declared policy as a collection item (export form, plus the typed body in `send`). */
export function policyItem(p: Policy): Item {
  const { send, config } = policyParts(p);
  const common = {
    name: p.name,
    description: p.description ?? '',
    type: p.type,
    logic: p.logic ?? 'POSITIVE',
    decisionStrategy: p.decisionStrategy ?? 'UNANIMOUS',
  };
  return { ...common, config, send: { ...common, ...send } };
}

/** A declared permission as a collection item (export form, plus the typed body in `send`). */
export function permissionItem(p: Permission): Item {
  const common = {
    name: p.name,
    description: p.description ?? '',
    type: p.type,
    logic: 'POSITIVE',
    decisionStrategy: p.decisionStrategy ?? 'UNANIMOUS',
  };
  const typed = {
    resources: sorted(p.resources),
    policies: sorted(p.policies),
    ...(p.type === 'scope' ? { scopes: sorted(p.scopes) } : {}),
  };
  const config = {
    resources: json(typed.resources),
    applyPolicies: json(typed.policies),
    ...(p.type === 'scope' ? { scopes: json(typed.scopes) } : {}),
  };
  return { ...common, config, send: { ...common, ...typed } };
}
