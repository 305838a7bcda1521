// A realm's groups as managed collections, one per level of the tree: the top-level groups, and the children of
// each declared group (subgroups at any depth; a group's natural key is its path, its name within its parent).
// Each group the operator creates carries the owner attribute and the ledgers of the realm and client roles it
// maps (see role-mappings.ts); Keycloak deletes a group's subgroups with it.
import type { Collection, Item } from './collection.ts';
import { clientMappingKey, groupClientRolesLedger, groupRolesLedger } from './role-mappings.ts';

const enc = encodeURIComponent;

/** A declared group, as the spec has it. */
export type GroupSpec = {
  name: string;
  parent?: string;
  attributes?: Record<string, string[]>;
  realmRoles?: string[];
  clientRoles?: Record<string, string[]>;
};

/** The path of a declared group (`/parent/name`), its natural key in the tree. */
export const groupPath = (g: GroupSpec) => `${g.parent ?? ''}/${g.name}`;

/** The client-role mappings a group declares, as ledger keys (`client/<clientId>/<role>`, sorted). */
export const groupClientKeys = (g: GroupSpec) =>
  Object.entries(g.clientRoles ?? {})
    .flatMap(([clientId, roles]) => roles.map((role) => clientMappingKey(clientId, role)))
    .sort();

/** A declared group as Keycloak represents it: its attributes and its role ledgers. */
export function groupItem(group: GroupSpec): Item {
  const roles = [...(group.realmRoles ?? [])].sort();
  const clientKeys = groupClientKeys(group);
  return {
    name: group.name,
    attributes: {
      ...group.attributes,
      ...(roles.length ? { [groupRolesLedger]: [roles.join(',')] } : {}),
      ...(clientKeys.length ? { [groupClientRolesLedger]: [clientKeys.join(',')] } : {}),
    },
  };
}

function level(realm: string, listPath: string, createPath: string, parent: string): Collection {
  return {
    noun: parent ? `subgroup of ${parent}` : 'group',
    field: 'spec.groups',
    listPath,
    key: (g) => String(g.name),
    compared: { name: '', attributes: {} },
    write: {
      mode: 'each',
      createPath,
      itemPath: (live) => `/${enc(realm)}/groups/${enc(String(live.id))}`,
    },
  };
}

/** The top-level groups of `realm`. */
export function groups(realm: string): Collection {
  const base = `/${enc(realm)}/groups`;
  return level(realm, `${base}?briefRepresentation=false&max=10000`, base, '');
}

/** The subgroups of the group with id `parentId` (path `parentPath`); Keycloak answers 10 unless told `max`. */
export function childGroups(realm: string, parentId: string, parentPath: string): Collection {
  const base = `/${enc(realm)}/groups/${enc(parentId)}/children`;
  return level(realm, `${base}?briefRepresentation=false&max=10000`, base, parentPath);
}
