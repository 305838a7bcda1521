// The fake Keycloak's authorization services (see fake-keycloak-admin.ts), as strict as the real admin API where
// the operator could be fooled: switching authorization on creates Keycloak's Default Resource, Default Policy and
// Default Permission, switching it off deletes everything; names are unique (409); a resource naming a missing
// scope creates it; a scope still used by a resource cannot be deleted (400); a typed policy naming a role, user,
// resource, scope or policy that does not exist is an internal error (500), as in Keycloak; the export
// (GET .../settings) names everything and carries no ids; the policy list carries ids.
import { randomUUID } from 'node:crypto';
import { copy, type Realm, reply } from './fake-keycloak-scopes.ts';

type Obj = Record<string, any>;
type Authz = { settings: Obj; scopes: Obj[]; resources: Obj[]; policies: Obj[] };

/** The policy types the fake server offers (Keycloak's policy providers, js among them). */
export const policyProviders = [
  'role',
  'group',
  'client',
  'user',
  'time',
  'aggregate',
  'client-scope',
  'regex',
  'js',
  'resource',
  'scope',
];

/** Creates or removes a client's resource server as its authorizationServicesEnabled says (after a write). */
export function authzOnClientWrite(client: Obj): void {
  if (!client.authorizationServicesEnabled) {
    delete client.authz;
    client.authorizationServicesEnabled = false;
    return;
  }
  if (client.authz) return;
  const type = `urn:${client.clientId}:resources:default`;
  const policy = {
    id: randomUUID(),
    name: 'Default Policy',
    description: 'A policy that grants access only for users within this realm',
    type: 'js',
    logic: 'POSITIVE',
    decisionStrategy: 'AFFIRMATIVE',
    typed: { code: '$evaluation.grant();' },
  };
  client.authz = {
    settings: {
      policyEnforcementMode: 'ENFORCING',
      decisionStrategy: 'UNANIMOUS',
      allowRemoteResourceManagement: false,
    },
    scopes: [],
    resources: [
      { _id: randomUUID(), name: 'Default Resource', type, uris: ['/*'], scopes: [], attributes: {} },
    ],
    policies: [
      policy,
      {
        id: randomUUID(),
        name: 'Default Permission',
        description: 'A permission that applies to the default resource type',
        type: 'resource',
        logic: 'POSITIVE',
        decisionStrategy: 'UNANIMOUS',
        typed: { resourceType: type, resources: [], policies: ['Default Policy'] },
      },
    ],
  } satisfies Authz;
}

/** A stored policy in Keycloak's export form (names, JSON strings in config, no id). */
function exported(p: Obj): Obj {
  const t = p.typed;
  const list = (v: unknown) => JSON.stringify(v ?? []);
  const byType: Record<string, Obj> = {
    role: {
      roles: list(t.roles?.map((r: Obj) => ({ id: r.id, required: r.required ?? false }))),
      fetchRoles: String(t.fetchRoles ?? false),
    },
    group: {
      groups: list(t.groups?.map((g: Obj) => ({ path: g.path, extendChildren: g.extendChildren ?? false }))),
      ...(t.groupsClaim ? { groupsClaim: t.groupsClaim } : {}),
    },
    client: { clients: list(t.clients) },
    user: { users: list(t.users) },
    'client-scope': { clientScopes: list(t.clientScopes) },
    time: Object.fromEntries(Object.entries(t).map(([k, v]) => [k, String(v)])),
    regex: {
      targetClaim: t.targetClaim,
      pattern: t.pattern,
      targetContextAttributes: String(t.targetContextAttributes ?? false),
    },
    aggregate: { applyPolicies: list(t.policies) },
    resource: {
      ...(t.resourceType ? { defaultResourceType: t.resourceType } : {}),
      resources: list(t.resources),
      applyPolicies: list(t.policies),
    },
    scope: { resources: list(t.resources), scopes: list(t.scopes), applyPolicies: list(t.policies) },
    js: { code: t.code },
  };
  const { id: _, typed: _t, ...rest } = p;
  return { ...rest, config: byType[p.type] ?? {} };
}

/** The fields of a typed policy body kept as given (the rest is the common part). */
function typedPart(body: Obj): Obj {
  const { id: _, name: _n, description: _d, type: _t, logic: _l, decisionStrategy: _s, ...typed } = body;
  return typed;
}

/** Why Keycloak would fail writing this typed policy (its RuntimeException, a 500), if it would. */
function unknownReference(realm: Realm, authz: Authz, body: Obj): string | undefined {
  for (const r of body.roles ?? []) {
    const [clientId, role] = String(r.id).includes('/') ? String(r.id).split('/') : [undefined, r.id];
    const holder = clientId ? realm.clients.find((c) => c.clientId === clientId)?.roles : realm.roles;
    if (!holder?.some((x: Obj) => x.name === role)) return `Role [${r.id}] could not be found`;
  }
  for (const u of body.users ?? [])
    if (!realm.users.some((x) => x.username === u)) return `User [${u}] not found`;
  for (const c of body.clients ?? [])
    if (!realm.clients.some((x) => x.clientId === c)) return `Client [${c}] not found`;
  for (const g of body.groups ?? [])
    if (!realm.groups.some((x) => `/${x.name}` === g.path)) return `Group [${g.path}] not found`;
  for (const s of body.clientScopes ?? [])
    if (!realm.clientScopes.some((x) => x.name === s.id)) return `Client Scope [${s.id}] could not be found`;
  for (const n of body.resources ?? [])
    if (!authz.resources.some((x) => x.name === n)) return `Resource with id or name [${n}] does not exist`;
  for (const n of body.scopes ?? [])
    if (!authz.scopes.some((x) => x.name === n)) return `Scope [${n}] does not exist`;
  for (const n of body.policies ?? [])
    if (!authz.policies.some((x) => x.name === n)) return `Policy with id or name [${n}] does not exist`;
  return undefined;
}

/** .../clients/{id}/authz/resource-server[/...]: `rest` is what follows `resource-server`. */
export function authzRoute(realm: Realm, client: Obj, method: string, rest: string[], body: any) {
  const authz = client.authz as Authz | undefined;
  if (!authz) return reply(404, { error: 'HTTP 404 Not Found' });
  const [kind, a, b] = rest;
  if (!kind) {
    if (method === 'GET') return reply(200, { clientId: client.id, ...authz.settings });
    Object.assign(authz.settings, {
      policyEnforcementMode: body.policyEnforcementMode,
      decisionStrategy: body.decisionStrategy,
      allowRemoteResourceManagement: body.allowRemoteResourceManagement,
    });
    return reply(204);
  }
  if (kind === 'settings' && method === 'GET')
    return reply(200, {
      ...authz.settings,
      resources: authz.resources.map(({ _id, ...r }) => ({
        ...r,
        scopes: r.scopes.map((s: Obj) => ({ name: s.name })),
      })),
      policies: authz.policies.map(exported),
      scopes: authz.scopes.map(({ id, ...s }) => s),
    });
  if (kind === 'scope') {
    const scope = a ? authz.scopes.find((s) => s.id === a) : undefined;
    if (method === 'GET') return reply(200, copy(authz.scopes));
    if (method === 'POST') {
      if (authz.scopes.some((s) => s.name === body.name))
        return reply(409, { error: 'Scope already exists' });
      authz.scopes.push({ ...body, id: randomUUID() });
      return reply(201);
    }
    if (!scope) return reply(404);
    if (method === 'DELETE') {
      if (authz.resources.some((r) => r.scopes.some((s: Obj) => s.id === scope.id)))
        return reply(400, { error: 'Scopes can not be removed while associated with resources.' });
      authz.scopes = authz.scopes.filter((s) => s !== scope);
    } else Object.assign(scope, { displayName: body.displayName, iconUri: body.iconUri, name: body.name });
    return reply(204);
  }
  if (kind === 'resource') {
    const resource = a ? authz.resources.find((r) => r._id === a) : undefined;
    if (method === 'GET')
      return reply(
        200,
        copy(authz.resources).map((r: Obj) => ({ ...r, owner: { id: client.id, name: client.clientId } })),
      );
    // Keycloak creates a scope a resource names when it does not exist.
    const scopes = (body?.scopes ?? []).map((s: Obj) => {
      const found = authz.scopes.find((x) => x.name === s.name);
      if (found) return { id: found.id, name: found.name };
      const made = { id: randomUUID(), name: s.name };
      authz.scopes.push(made);
      return made;
    });
    const fields = {
      name: body?.name,
      displayName: body?.displayName,
      type: body?.type,
      uris: body?.uris ?? [],
      ownerManagedAccess: body?.ownerManagedAccess ?? false,
      attributes: body?.attributes ?? {},
      scopes,
    };
    if (method === 'POST') {
      if (authz.resources.some((r) => r.name === body.name))
        return reply(409, { error: 'Resource already exists' });
      authz.resources.push({ ...fields, _id: randomUUID() });
      return reply(201);
    }
    if (!resource) return reply(404);
    if (method === 'DELETE') {
      authz.resources = authz.resources.filter((r) => r !== resource);
      for (const p of authz.policies)
        if (p.typed.resources)
          p.typed.resources = p.typed.resources.filter((n: string) => n !== resource.name);
    } else Object.assign(resource, fields);
    return reply(204);
  }
  if (kind !== 'policy') return reply(404);
  if (!a && method === 'GET')
    return reply(
      200,
      authz.policies.map(({ typed: _, ...p }) => copy(p)),
    );
  if (!a || !policyProviders.includes(a)) return reply(404);
  const policy = b ? authz.policies.find((p) => p.id === b && p.type === a) : undefined;
  if (b && !policy) return reply(404);
  if (method === 'GET') return reply(200, { ...copy(policy), ...copy(policy?.typed), typed: undefined });
  if (method === 'DELETE') {
    authz.policies = authz.policies.filter((p) => p !== policy);
    for (const p of authz.policies)
      if (p.typed.policies) p.typed.policies = p.typed.policies.filter((n: string) => n !== policy?.name);
    return reply(204);
  }
  if (a === 'js') return reply(400, { error: 'Script upload is disabled' });
  const missing = unknownReference(realm, authz, body);
  if (missing) return reply(500, { error: 'unknown_error', error_description: missing });
  const common = {
    name: body.name,
    description: body.description,
    logic: body.logic ?? 'POSITIVE',
    decisionStrategy: body.decisionStrategy ?? 'UNANIMOUS',
  };
  if (method === 'POST') {
    if (authz.policies.some((p) => p.name === body.name))
      return reply(409, { errorMessage: `Policy with name [${body.name}] already exists` });
    authz.policies.push({ ...common, id: randomUUID(), type: a, typed: typedPart(body) });
    return reply(201);
  }
  Object.assign(policy as Obj, { ...common, typed: typedPart(body) });
  return reply(201);
}

/** Realm lookups the operator makes before writing a policy: users by exact username, groups by path. */
export function lookupRoute(realm: Realm, col: string, parts: string[], query: string) {
  if (col === 'users') {
    const username = new URLSearchParams(query).get('username');
    return reply(200, copy(realm.users.filter((u) => u.username === username)));
  }
  const group = realm.groups.find((g) => g.name === parts[0] && parts.length === 1);
  return group ? reply(200, copy(group)) : reply(404, { error: 'Group path does not exist' });
}
