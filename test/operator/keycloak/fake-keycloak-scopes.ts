// The fake Keycloak's client scopes, realm scope links and organizations (see fake-keycloak-admin.ts): as strict as
// the real admin API where the operator could be fooled.
import { randomUUID } from 'node:crypto';
import type { AdminResponse } from '../../../src/operator/keycloak/admin-client.ts';

type Obj = Record<string, any>;
export type Realm = Obj & {
  roles: Obj[];
  groups: Obj[];
  clients: Obj[];
  users: Obj[];
  clientScopes: Obj[];
  organizations: Obj[];
  scopeLinks: { default: string[]; optional: string[] };
};

export const reply = <T>(status: number, body?: unknown, location?: string): AdminResponse<T> => ({
  status,
  body: body as T,
  location,
});
export const copy = <T>(v: T): T => (v === undefined ? v : JSON.parse(JSON.stringify(v)));

/** Keycloak's built-in client scopes of a new realm, and which of them are realm default or optional. */
export const builtInScopes = {
  default: ['acr', 'basic', 'email', 'profile', 'role_list', 'roles', 'web-origins'],
  optional: ['address', 'microprofile-jwt', 'offline_access', 'phone'],
};

/** The realm's default or optional client scopes: GET lists them, PUT links (moving it from the other list),
 * DELETE unlinks; an unknown scope id is 404. */
export function scopeLinkRoute(
  realm: Realm,
  kind: 'default' | 'optional',
  method: string,
  id: string | undefined,
) {
  const links = realm.scopeLinks[kind];
  if (method === 'GET')
    return reply(
      200,
      links
        .map((lid) => realm.clientScopes.find((c) => c.id === lid))
        .map((c) => ({ id: c?.id, name: c?.name })),
    );
  if (!realm.clientScopes.some((c) => c.id === id)) return reply(404, { error: 'Client scope not found' });
  if (method === 'PUT') {
    // Keycloak links a scope as default or optional, never both: linking moves it.
    const other = kind === 'default' ? 'optional' : 'default';
    realm.scopeLinks[other] = realm.scopeLinks[other].filter((x) => x !== id);
    if (!links.includes(String(id))) links.push(String(id));
  } else realm.scopeLinks[kind] = links.filter((x) => x !== id);
  return reply(204);
}

/** Organizations: only while the realm has them on; a name or a domain used twice is 409; at least one domain;
 * the alias defaults to the name; domains come back in Keycloak's order (not the order sent). */
export function organizationRoute(realm: Realm, method: string, id: any, body: any) {
  if (!realm.organizationsEnabled)
    return reply(400, { errorMessage: 'Organizations not enabled for this realm.' });
  const org = id ? realm.organizations.find((o) => o.id === id) : undefined;
  if (id && !org) return reply(404, { errorMessage: 'Organization not found' });
  if (method === 'GET') return reply(200, copy(org ?? realm.organizations));
  if (method === 'DELETE') {
    realm.organizations = realm.organizations.filter((o) => o !== org);
    return reply(204);
  }
  if (!body.domains?.length) return reply(400, { errorMessage: 'You must provide at least one domain' });
  const others = realm.organizations.filter((o) => o !== org);
  if (others.some((o) => o.name === body.name))
    return reply(409, { errorMessage: 'A organization with the same name already exists.' });
  const taken = body.domains.find((d: Obj) =>
    others.some((o) => o.domains.some((x: Obj) => x.name === d.name)),
  );
  if (taken)
    return reply(409, { errorMessage: `Domain ${taken.name} is already linked to another organization` });
  const stored = {
    attributes: {},
    ...body,
    alias: org?.alias ?? body.alias ?? body.name,
    domains: [...body.domains].map((d: Obj) => ({ name: d.name, verified: d.verified ?? false })).reverse(),
    id: org?.id ?? randomUUID(),
  };
  if (org) Object.assign(org, stored);
  else realm.organizations.push(stored);
  return reply(org ? 204 : 201);
}

/** Client scopes: attributes are strings (a list is a 400, as Keycloak's JSON mapping refuses it); an update
 * sets the attributes given and keeps the others; mappers live under the scope. */
export function clientScopeRoute(
  realm: Realm,
  method: string,
  id: any,
  sub: any,
  rest: string[],
  body: any,
  r: string,
) {
  const badAttribute = (attrs: Obj = {}) => Object.values(attrs).some((v) => typeof v !== 'string');
  if (!id) {
    if (method === 'GET') return reply(200, copy(realm.clientScopes));
    if (realm.clientScopes.some((c) => c.name === body.name))
      return reply(409, { errorMessage: `Client Scope ${body.name} already exists` });
    if (badAttribute(body.attributes)) return reply(400, { error: 'Cannot deserialize attributes' });
    const sid = randomUUID();
    realm.clientScopes.push({ attributes: {}, protocolMappers: [], ...body, id: sid });
    return reply(201, undefined, `http://kc/admin/realms/${r}/client-scopes/${sid}`);
  }
  const scope = realm.clientScopes.find((c) => c.id === id);
  if (!scope) return reply(404, { error: 'Could not find client scope' });
  if (!sub) {
    if (method === 'DELETE') {
      realm.clientScopes = realm.clientScopes.filter((c) => c !== scope);
      for (const kind of ['default', 'optional'] as const)
        realm.scopeLinks[kind] = realm.scopeLinks[kind].filter((x) => x !== id);
      return reply(204);
    }
    if (badAttribute(body.attributes)) return reply(400, { error: 'Cannot deserialize attributes' });
    Object.assign(scope, {
      name: body.name,
      description: body.description,
      protocol: body.protocol,
      attributes: { ...scope.attributes, ...body.attributes },
    });
    return reply(204);
  }
  if (sub !== 'protocol-mappers') return reply(404);
  if (method === 'GET') return reply(200, copy(scope.protocolMappers));
  if (method === 'POST') {
    if (scope.protocolMappers.some((m: Obj) => m.name === body.name))
      return reply(409, { errorMessage: 'Protocol mapper exists with same name' });
    scope.protocolMappers.push({ ...body, id: randomUUID() });
    return reply(201);
  }
  const mapper = scope.protocolMappers.find((m: Obj) => m.id === rest[1]);
  if (!mapper) return reply(404);
  if (method === 'DELETE') scope.protocolMappers = scope.protocolMappers.filter((m: Obj) => m !== mapper);
  else Object.assign(mapper, { ...body, id: mapper.id });
  return reply(204);
}
