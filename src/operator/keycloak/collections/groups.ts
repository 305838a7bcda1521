// A realm's groups as managed collections, one per level of the tree: the top-level groups, and the children of
// each declared group (subgroups at any depth; a group's natural key is its path, its name within its parent).
// The realm's record lists the groups the operator made by path (section-ownership.ts); each carries the ledgers
// of the realm and client roles it maps (see role-mappings.ts; mappings made by hand stay); Keycloak deletes a
// group's subgroups with it. A steady resync reads the top-level groups (when declared now or before), a declared
// group's children only when it has some or declares some, and looks a client up only when one of its mappings
// must be written.
import type { IdentityRealm } from '../../../../generated/types/crds/identityrealm.ts';
import { RealmforgeError } from '../../../core/errors.ts';
import type { AdminClient } from '../admin-client.ts';
import { type Collection, type Item, itemLedger, ledger, ledgerEntry, syncCollection } from './collection.ts';
import { ledgerClientIds, lookUpClients } from './role-composites.ts';
import {
  clientMappingKey,
  groupClientRoles,
  groupClientRolesLedger,
  groupRealmRoles,
  groupRolesLedger,
} from './role-mappings.ts';
import { type SectionOwner, sectionLedgers, sectionOwnership } from './section-ownership.ts';

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

/** Refuses, before any write, a group whose parent is not a declared group. */
export function checkGroupTree(spec: IdentityRealm['spec']): void {
  const paths = new Set((spec.groups ?? []).map(groupPath));
  for (const g of spec.groups ?? []) {
    if (g.parent && !paths.has(g.parent))
      throw new RealmforgeError(
        'validation',
        `spec.groups[${groupPath(g)}].parent: "${g.parent}" is not a group declared in spec.groups: declare it, or leave parent empty for a top-level group`,
      );
  }
}

/** The group tree; `clients` (clientId -> internal id) is shared by the sync's lookups. */
export async function syncGroupTree(
  admin: AdminClient,
  ns: string,
  realm: string,
  spec: IdentityRealm['spec'],
  owner: SectionOwner,
  declaredBefore: boolean,
  clients: Map<string, string>,
): Promise<string[]> {
  const writes: string[] = [];
  const recorded = itemLedger(owner.recorded, sectionLedgers.groups);
  const byParent = new Map<string, GroupSpec[]>();
  for (const g of spec.groups ?? [])
    byParent.set(g.parent ?? '', [...(byParent.get(g.parent ?? '') ?? []), g]);
  const level = async (parentPath: string, collection: ReturnType<typeof groups>, before: boolean) => {
    const declared = byParent.get(parentPath) ?? [];
    // The record lists paths; this level's items are keyed by name within parentPath.
    const names = [...recorded.managed].filter(
      (p) => p.lastIndexOf('/') === parentPath.length && p.startsWith(parentPath),
    );
    const { ownership, options } = sectionOwnership(admin, ns, owner, sectionLedgers.groups, {
      managed: new Set(names.map((p) => p.slice(parentPath.length + 1))),
      entry: (name) => ledgerEntry(`${parentPath}/${name}`),
    });
    const desired = declared.map(groupItem);
    const result = await syncCollection(admin, ns, collection, desired, ownership, {
      ...options,
      declaredBefore: before,
    });
    writes.push(...result.writes);
    const live = result.created
      ? ((await admin.call<Item[]>(ns, 'GET', collection.listPath)).body ?? [])
      : result.live;
    for (const g of declared) {
      const have = live.find((x) => x.name === g.name);
      if (!have?.id) continue;
      await syncMappings(admin, ns, realm, g, have, clients, writes);
      const path = groupPath(g);
      const hasChildren = Number(have.subGroupCount ?? 0) > 0;
      if (byParent.has(path) || hasChildren)
        await level(path, childGroups(realm, String(have.id), path), hasChildren);
    }
  };
  await level('', groups(realm), declaredBefore);
  return writes;
}

async function syncMappings(
  admin: AdminClient,
  ns: string,
  realm: string,
  g: GroupSpec,
  have: Item,
  clients: Map<string, string>,
  writes: string[],
) {
  const path = groupPath(g);
  const attributes = have.attributes as Record<string, unknown> | undefined;
  const mapped = ((have.realmRoles as string[] | undefined) ?? []).map((name) => ({ name }));
  const realmResult = await syncCollection(
    admin,
    ns,
    groupRealmRoles(realm, String(have.id), path),
    (g.realmRoles ?? []).map((name) => ({ name })),
    ledger(attributes, groupRolesLedger),
    { live: mapped },
  );
  writes.push(...realmResult.writes);
  // Client roles: the group's answer carries them by clientId, so a client is looked up only to write.
  const owned = ledger(attributes, groupClientRolesLedger).managed;
  const wanted = new Set(groupClientKeys(g));
  const liveRoles = (have.clientRoles ?? {}) as Record<string, string[]>;
  const liveKeys = new Set(
    Object.entries(liveRoles).flatMap(([c, names]) => names.map((n) => clientMappingKey(c, n))),
  );
  const touched = new Set([
    ...ledgerClientIds([...wanted].filter((k) => !liveKeys.has(k))),
    ...ledgerClientIds([...owned].filter((k) => liveKeys.has(k) && !wanted.has(k))),
  ]);
  if (!touched.size) return;
  await lookUpClients(admin, ns, realm, touched, clients);
  for (const clientId of [...touched].sort()) {
    const uuid = clients.get(clientId);
    const declared = g.clientRoles?.[clientId] ?? [];
    if (!uuid) {
      if (!declared.length) continue;
      throw new RealmforgeError(
        'validation',
        `spec.groups[${path}].clientRoles names client "${clientId}", which does not exist in the realm: create it first or remove it`,
      );
    }
    const result = await syncCollection(
      admin,
      ns,
      groupClientRoles(realm, String(have.id), path, clientId, uuid),
      declared.map((name) => ({ name })),
      { managed: owned },
      { live: (liveRoles[clientId] ?? []).map((name) => ({ name })) },
    );
    writes.push(...result.writes);
  }
}
