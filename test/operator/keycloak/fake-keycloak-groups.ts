// The fake Keycloak's group tree and role composites (see fake-keycloak-admin.ts), as strict as the real admin API
// where the operator could be fooled: the top-level list carries subGroupCount but no subgroups, children are
// listed 10 at a time unless told `max`, a sibling of the same name is 409, deleting a group deletes its subtree,
// a group's client roles are answered by clientId, composites are added and removed by role id (an unknown id is
// 404) and listed with clientRole and containerId.
import { randomUUID } from 'node:crypto';
import type { AdminResponse } from '../../../src/operator/keycloak/admin-client.ts';
import { copy, type Realm, reply } from './fake-keycloak-scopes.ts';

type Obj = Record<string, any>;

/** A stored group: its answer's fields, its children and its client roles by client id. */
export function newGroup(body: Obj, parentPath: string): Obj {
  return {
    attributes: {},
    realmRoles: [],
    ...body,
    clientRoles: undefined,
    id: randomUUID(),
    path: `${parentPath}/${body.name}`,
    children: [],
    clientRoleIds: {},
  };
}

/** Every group of the tree, depth first. */
export const allGroups = (groups: Obj[]): Obj[] => groups.flatMap((g) => [g, ...allGroups(g.children)]);

/** Every role of the realm, its clients' included. */
export const allRoles = (realm: Realm): Obj[] => [...realm.roles, ...realm.clients.flatMap((c) => c.roles)];

/** A role as Keycloak answers it: composite says whether it contains others. */
export const roleView = (realm: Realm, role: Obj) => ({
  ...copy(role),
  composite: (realm.compositeIds?.[role.id] ?? []).length > 0,
});

function groupView(realm: Realm, g: Obj): Obj {
  const { children, clientRoleIds, ...rest } = copy(g);
  const clientRoles = Object.fromEntries(
    Object.entries(clientRoleIds as Record<string, string[]>)
      .filter(([, names]) => names.length)
      .map(([uuid, names]) => [realm.clients.find((c) => c.id === uuid)?.clientId, names]),
  );
  return { ...rest, clientRoles, subGroupCount: children.length, subGroups: [] };
}

/** The role-mapping endpoint of a holder (realm roles or one client's roles, by name). */
export type Mappings = (
  roles: Obj[],
  holder: Obj,
  field: string,
  method: string,
  body: any,
) => AdminResponse<unknown>;

/** /groups routes: parts from the realm name on, e.g. [realm, "groups", id, "children"]. */
export function groupRoute(
  realm: Realm,
  realmName: string,
  parts: string[],
  query: string,
  method: string,
  body: any,
  mappings: Mappings,
) {
  const [, , id, sub, ...rest] = parts;
  const max = Number(new URLSearchParams(query).get('max') ?? 10);
  const siblings = (list: Obj[]) => {
    if (method === 'GET')
      return reply(
        200,
        list.slice(0, max).map((g) => groupView(realm, g)),
      );
    if (list.some((g) => g.name === body.name))
      return reply(409, { errorMessage: 'Sibling group named already exists.' });
    const parent = allGroups(realm.groups).find((g) => g.children === list);
    const group = newGroup(body, parent?.path ?? '');
    list.push(group);
    return reply(201, undefined, `http://kc/admin/realms/${realmName}/groups/${group.id}`);
  };
  if (!id) return siblings(realm.groups);
  const group = allGroups(realm.groups).find((g) => g.id === id);
  if (!group) return reply(404, { error: 'Could not find group by id' });
  if (sub === 'children') return siblings(group.children);
  if (!sub) {
    if (method === 'GET') return reply(200, groupView(realm, group));
    if (method === 'DELETE') {
      const holder = allGroups(realm.groups).find((g) => g.children.includes(group));
      const list = holder ? holder.children : realm.groups;
      list.splice(list.indexOf(group), 1);
    } else Object.assign(group, { name: body.name, attributes: body.attributes ?? {} });
    return reply(204);
  }
  if (sub === 'role-mappings' && rest[0] === 'realm')
    return mappings(realm.roles, group, 'realmRoles', method, body);
  if (sub === 'role-mappings' && rest[0] === 'clients') {
    const client = realm.clients.find((c) => c.id === rest[1]);
    if (!client) return reply(404, { error: 'Client not found' });
    group.clientRoleIds[client.id] ??= [];
    return mappings(client.roles, group.clientRoleIds, client.id, method, body);
  }
  return reply(404, { error: `no route for ${method} groups/${parts.slice(2).join('/')}` });
}

/** /roles-by-id/{id}/composites: GET lists the contained roles, POST and DELETE take roles with their ids. */
export function compositeRoute(realm: Realm, roleId: string, method: string, body: any) {
  realm.compositeIds ??= {};
  const ids: string[] = realm.compositeIds[roleId] ?? [];
  const roles = allRoles(realm);
  if (method === 'GET')
    return reply(
      200,
      ids.map((i) => roleView(realm, roles.find((r) => r.id === i) as Obj)),
    );
  for (const role of body as Obj[])
    if (!roles.some((r) => r.id === role.id))
      return reply(404, { error: `Could not find composite role: ${role.name}` });
  const given = (body as Obj[]).map((r) => String(r.id));
  realm.compositeIds[roleId] =
    method === 'POST' ? [...new Set([...ids, ...given])] : ids.filter((i) => !given.includes(i));
  return reply(204);
}

/** Keycloak forgets a deleted role everywhere: in composites, groups and users. */
export function forgetRole(realm: Realm, role: Obj) {
  for (const [holder, ids] of Object.entries((realm.compositeIds ?? {}) as Record<string, string[]>))
    realm.compositeIds[holder] = ids.filter((i) => i !== role.id);
  delete realm.compositeIds?.[role.id];
  for (const holder of [...allGroups(realm.groups), ...realm.users]) {
    if (!role.clientRole)
      holder.realmRoles = (holder.realmRoles ?? []).filter((n: string) => n !== role.name);
    const byClient = holder.clientRoleIds ?? holder.clientRoles ?? {};
    if (role.clientRole && byClient[role.containerId])
      byClient[role.containerId] = byClient[role.containerId].filter((n: string) => n !== role.name);
  }
}

/** One role, by name or by id: GET reads it, PUT replaces its name, description and attributes, DELETE removes it
 * everywhere (as Keycloak does); any other method is 405. */
export function roleRoute(
  realm: Realm,
  role: Obj | undefined,
  method: string,
  body: Obj,
): AdminResponse<unknown> {
  if (!role) return reply(404, { error: 'Could not find role' });
  if (method === 'GET') return reply(200, roleView(realm, role));
  if (method === 'PUT') {
    Object.assign(role, {
      name: body.name,
      description: body.description,
      attributes: body.attributes ?? {},
    });
    return reply(204);
  }
  if (method !== 'DELETE') return reply(405);
  for (const holder of [realm, ...realm.clients]) {
    const i = holder.roles.findIndex((r: Obj) => r.id === role.id);
    if (i >= 0) holder.roles.splice(i, 1);
  }
  forgetRole(realm, role);
  return reply(204);
}
