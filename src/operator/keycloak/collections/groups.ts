// A realm's top-level groups as a managed collection: each group the operator creates carries the owner
// attribute and the ledger of the realm roles it maps (see role-mappings.ts).
import type { Collection, Item } from './collection.ts';
import { groupRolesLedger } from './role-mappings.ts';

const enc = encodeURIComponent;

/** A declared group as Keycloak represents it, its role ledger included. */
export function groupItem(group: { name: string; realmRoles?: string[] }): Item {
  const roles = [...(group.realmRoles ?? [])].sort();
  return { name: group.name, attributes: roles.length ? { [groupRolesLedger]: [roles.join(',')] } : {} };
}

/** The top-level groups of `realm`. */
export function groups(realm: string): Collection {
  const base = `/${enc(realm)}/groups`;
  return {
    noun: 'group',
    field: 'spec.groups',
    listPath: `${base}?briefRepresentation=false&max=10000`,
    key: (g) => String(g.name),
    compared: { name: '', attributes: {} },
    write: { mode: 'each', createPath: base, itemPath: (live) => `${base}/${enc(String(live.id))}` },
  };
}
