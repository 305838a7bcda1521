// Realm roles, the realm's default roles and groups: the inverse of keycloak/collections/roles.ts, groups.ts and
// role-mappings.ts. Keycloak's own roles (offline_access, uma_authorization, default-roles-<realm>) are left out
// unless changed, which is noted; a group tree becomes the spec's flat list with parent paths.
import {
  compact,
  type ImportContext,
  type Json,
  listAt,
  objectAt,
  type RealmSpec,
  strings,
} from './context.ts';
import { noteChanged } from './keycloak-defaults.ts';

type Role = NonNullable<RealmSpec['roles']>[number];
type Group = NonNullable<RealmSpec['groups']>[number];

export const rolesGroupsKeys = ['roles', 'groups', 'defaultRole'];

/** Role references (realm names, client -> names) with empty parts dropped. */
function refs(composites: unknown): Json {
  const c = objectAt(composites);
  const client = Object.fromEntries(
    Object.entries(objectAt(c.client))
      .filter(([, names]) => strings(names).length)
      .map(([k, v]) => [k, strings(v)]),
  );
  return compact({ realm: strings(c.realm), client });
}

const attributesOf = (v: unknown) => {
  const a = objectAt(v);
  return Object.keys(a).length ? (a as Record<string, string[]>) : undefined;
};

export function importRolesGroups(exp: Json, ctx: ImportContext): Partial<RealmSpec> {
  const builtIn = new Map(listAt(objectAt(ctx.defaults.roles).realm).map((r) => [String(r.name), r]));
  const defaultRoleName = `default-roles-${ctx.realm}`.toLowerCase();
  const roles: Role[] = [];
  let defaultRoles: Json | undefined;
  for (const role of listAt(objectAt(exp.roles).realm)) {
    const name = String(role.name);
    if (name === defaultRoleName) {
      defaultRoles = importDefaultRoles(role, ctx);
      continue;
    }
    const known = builtIn.get(name);
    if (known) {
      noteChanged(ctx, `roles.realm[${name}]`, role, known);
      continue;
    }
    roles.push(
      compact({
        name,
        description:
          typeof role.description === 'string' && role.description !== '' ? role.description : undefined,
        attributes: attributesOf(role.attributes),
        composites: role.composite ? refs(role.composites) : undefined,
      }) as Role,
    );
  }
  return compact({ roles, defaultRoles, groups: importGroups(exp.groups, '') }) as Partial<RealmSpec>;
}

/** What the realm's default role holds beyond Keycloak's own; one of Keycloak's taken away is noted. */
function importDefaultRoles(role: Json, ctx: ImportContext): Json | undefined {
  const now = refs(role.composites);
  const before = refs(
    listAt(objectAt(ctx.defaults.roles).realm).find((r) => String(r.name).startsWith('default-roles-'))
      ?.composites,
  );
  const added = (have: unknown, had: unknown) => strings(have).filter((n) => !strings(had).includes(n));
  const removed = [
    ...added(before.realm, now.realm),
    ...Object.entries(objectAt(before.client)).flatMap(([c, names]) =>
      added(names, objectAt(now.client)[c]).map((n) => `${c}/${n}`),
    ),
  ];
  if (removed.length)
    ctx.note(
      `roles.realm[default-roles-${ctx.realm}].composites`,
      `Keycloak's default roles taken away (${removed.join(', ')}): the CRD only adds to them`,
      removed.length,
    );
  const client = Object.fromEntries(
    Object.entries(objectAt(now.client))
      .map(([c, names]) => [c, added(names, objectAt(before.client)[c])])
      .filter(([, names]) => names.length),
  );
  const out = compact({ realm: added(now.realm, before.realm), client });
  return Object.keys(out).length ? out : undefined;
}

/** A group tree as the spec's list: each group after its parent, its parent's path in `parent`. */
function importGroups(tree: unknown, parent: string): Group[] {
  return listAt(tree).flatMap((g) => {
    const path = `${parent}/${String(g.name)}`;
    const clientRoles = Object.fromEntries(
      Object.entries(objectAt(g.clientRoles))
        .filter(([, v]) => strings(v).length)
        .map(([k, v]) => [k, strings(v)]),
    );
    const group = compact({
      name: String(g.name),
      parent: parent || undefined,
      attributes: attributesOf(g.attributes),
      realmRoles: strings(g.realmRoles),
      clientRoles,
    }) as Group;
    return [group, ...importGroups(Array.isArray(g.subGroups) ? g.subGroups : [], path)];
  });
}
