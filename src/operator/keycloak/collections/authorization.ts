// A client's authorization services as four managed collections under .../clients/{id}/authz/resource-server:
// scopes, resources, policies and permissions. None of them has anywhere to carry an owner, so the client (ours)
// records the names it manages in its attributes (ledgers). Policies and permissions share one list in Keycloak
// (a permission is a policy of type resource or scope): they are read in Keycloak's export form (names, not ids)
// and written through the typed endpoints (see compile/client-authorization.ts). Synced after the client itself
// (whose update switches them on or off: switched off, Keycloak deletes the resource server with everything in
// it). Four reads: the resource server's export (its settings, and every policy and permission by name), the policy
// list (their ids), the scopes and the resources. Creates and updates go first, in dependency order (scopes,
// resources, policies, permissions), deletions last in the reverse order, so nothing is removed while something the
// spec still declares uses it. Keycloak's Default Resource, Default Policy and Default Permission are removed (they
// grant every user of the realm access to /*); anything made by hand is left alone (see the ledgers).
import type ClientRepresentation from '@keycloak/keycloak-admin-client/lib/defs/clientRepresentation.js';
import type { IdentityClient } from '../../../../generated/types/crds/identityclient.ts';
import { RealmforgeError } from '../../../core/errors.ts';
import {
  canonicalConfig,
  permissionItem,
  policyItem,
  resourceItem,
  resourceServerSettings,
  scopeItem,
} from '../../compile/client-authorization.ts';
import type { AdminClient } from '../admin-client.ts';
import { policyReferencesExist } from './authorization-references.ts';
import { type Collection, type Item, ledger, syncCollection } from './collection.ts';

const enc = encodeURIComponent;

/** The client attributes listing the names the operator manages, one per collection. */
export const authzLedgers = {
  scopes: 'realmforge.dev/authz-scopes',
  resources: 'realmforge.dev/authz-resources',
  policies: 'realmforge.dev/authz-policies',
  permissions: 'realmforge.dev/authz-permissions',
} as const;

/** The types that are permissions rather than policies. */
export const permissionTypes = new Set(['resource', 'scope']);

/** The resource server of the client `uuid` in `realm`. */
export const resourceServerPath = (realm: string, uuid: string) =>
  `/${enc(realm)}/clients/${enc(uuid)}/authz/resource-server`;

/** The authorization scopes of a client. */
export function authzScopes(realm: string, uuid: string): Collection {
  const base = `${resourceServerPath(realm, uuid)}/scope`;
  return {
    noun: 'authorization scope',
    field: 'spec.authorization.scopes',
    listPath: `${base}?first=0&max=10000`,
    key: (s) => String(s.name),
    compared: { name: '', displayName: '', iconUri: '' },
    write: { mode: 'each', createPath: base, itemPath: (live) => `${base}/${enc(String(live.id))}` },
  };
}

const names = (v: unknown) =>
  ((v as { name?: string }[] | undefined) ?? []).map((s) => String(s.name)).sort();

/** The authorization resources of a client (the list answer, deep, carries their scopes and attributes). */
export function authzResources(realm: string, uuid: string): Collection {
  const base = `${resourceServerPath(realm, uuid)}/resource`;
  return {
    noun: 'authorization resource',
    field: 'spec.authorization.resources',
    listPath: `${base}?deep=true&first=0&max=10000`,
    key: (r) => String(r.name),
    compared: {
      name: '',
      displayName: '',
      type: '',
      uris: [],
      scopes: [],
      ownerManagedAccess: false,
      attributes: {},
    },
    canonical: (r) => ({ ...r, uris: [...((r.uris as string[]) ?? [])].sort(), scopes: names(r.scopes) }),
    write: { mode: 'each', createPath: base, itemPath: (live) => `${base}/${enc(String(live._id))}` },
  };
}

function policiesOf(realm: string, uuid: string, noun: string, field: string): Collection {
  const base = `${resourceServerPath(realm, uuid)}/policy`;
  return {
    noun,
    field,
    listPath: `${base}?first=0&max=10000`,
    key: (p) => String(p.name),
    compared: {
      name: '',
      description: '',
      type: '',
      logic: 'POSITIVE',
      decisionStrategy: 'UNANIMOUS',
      config: {},
    },
    canonical: (p) => ({ ...p, config: canonicalConfig(String(p.type), p.config as Item | undefined) }),
    send: (desired, live) => ({ ...(desired.send as Item), ...(live ? { id: live.id } : {}) }),
    write: {
      mode: 'each',
      createPath: (item) => `${base}/${enc(String(item.type))}`,
      itemPath: (live) => `${base}/${enc(String(live.type))}/${enc(String(live.id))}`,
    },
  };
}

/** The authorization policies of a client (every type but resource and scope). */
export const authzPolicies = (realm: string, uuid: string) =>
  policiesOf(realm, uuid, 'authorization policy', 'spec.authorization.policies');

/** The authorization permissions of a client (policies of type resource or scope). */
export const authzPermissions = (realm: string, uuid: string) =>
  policiesOf(realm, uuid, 'authorization permission', 'spec.authorization.permissions');

/** Whether `item` is one of the three objects Keycloak creates when authorization services are switched on,
 * as Keycloak made it (by name and Keycloak's own description or type): the operator removes those. */
export function isKeycloakDefault(
  kind: 'resources' | 'policies' | 'permissions',
  item: Item,
  clientId: string,
): boolean {
  if (kind === 'resources')
    return item.name === 'Default Resource' && item.type === `urn:${clientId}:resources:default`;
  if (kind === 'policies')
    return (
      item.name === 'Default Policy' &&
      item.description === 'A policy that grants access only for users within this realm'
    );
  return (
    item.name === 'Default Permission' &&
    item.description === 'A permission that applies to the default resource type'
  );
}

/** What status reports: how many of each the client's authorization services hold as declared. */
export type AuthorizationSummary = {
  resources: number;
  scopes: number;
  policies: number;
  permissions: number;
};

type Export = {
  policyEnforcementMode?: string;
  decisionStrategy?: string;
  allowRemoteResourceManagement?: boolean;
  policies?: Item[];
};

/** The ledger attributes of a client whose spec declares `authorization` (empty lists left out). */
export function authorizationLedgers(client: IdentityClient): Record<string, string> {
  const a = client.spec.authorization;
  if (!a) return {};
  const lists = {
    [authzLedgers.scopes]: a.scopes,
    [authzLedgers.resources]: a.resources,
    [authzLedgers.policies]: a.policies,
    [authzLedgers.permissions]: a.permissions,
  };
  return Object.fromEntries(
    Object.entries(lists)
      .map(([k, items]) => [
        k,
        (items ?? [])
          .map((i) => i.name)
          .sort()
          .join(','),
      ])
      .filter(([, v]) => v),
  );
}

type Kind = keyof typeof authzLedgers;

/** One collection's sync split in two: `upsert` creates and updates (keeping what is to be deleted), `prune`
 * deletes what the operator manages and the spec no longer declares. */
function phases(
  admin: AdminClient,
  ns: string,
  c: Collection,
  desired: Item[],
  live: Item[],
  managed: Set<string>,
  writes: string[],
) {
  const declared = new Set(desired.map((i) => c.key(i)));
  const leftovers = live.filter((i) => managed.has(c.key(i)) && !declared.has(c.key(i)));
  const ownership = { managed };
  return {
    upsert: async () =>
      writes.push(
        ...(await syncCollection(admin, ns, c, [...desired, ...leftovers], ownership, { live })).writes,
      ),
    prune: async () =>
      writes.push(...(await syncCollection(admin, ns, c, [], ownership, { live: leftovers })).writes),
  };
}

/**
 * Syncs the authorization services of the client `live` (as read before this reconcile's update, whose
 * attributes hold the ledgers), recording each write in `writes`. Returns the summary, or undefined when the spec
 * has none.
 */
export async function syncAuthorization(
  admin: AdminClient,
  ns: string,
  realm: string,
  client: IdentityClient,
  live: ClientRepresentation,
  writes: string[],
): Promise<AuthorizationSummary | undefined> {
  const a = client.spec.authorization;
  if (!a) return undefined;
  const uuid = live.id ?? '';
  const base = resourceServerPath(realm, uuid);
  const get = async <T>(path: string) => {
    const res = await admin.call<T>(ns, 'GET', path);
    if (res.status === 404)
      throw new RealmforgeError(
        'transient',
        `client ${live.clientId}: Keycloak has no authorization resource server for it yet (${path})`,
      );
    return res.body;
  };
  const exported = (await get<Export>(`${base}/settings`)) ?? {};
  const settings = resourceServerSettings(a);
  const drift = Object.entries(settings).filter(([k, v]) => exported[k as keyof Export] !== v);
  if (drift.length) {
    await admin.call(ns, 'PUT', base, settings);
    writes.push(`update authorization settings (${drift.map(([k]) => k).join(', ')})`);
  }
  const ids = new Map(
    ((await get<Item[]>(`${base}/policy?first=0&max=10000`)) ?? []).map((p) => [p.name, p]),
  );
  const allPolicies: Item[] = (exported.policies ?? []).map((p) => ({ ...p, id: ids.get(p.name)?.id }));
  const clientId = String(live.clientId);
  const collections: Record<Kind, { c: Collection; desired: Item[]; live: Item[] }> = {
    scopes: {
      c: authzScopes(realm, uuid),
      desired: (a.scopes ?? []).map(scopeItem),
      live: (await get<Item[]>(authzScopes(realm, uuid).listPath)) ?? [],
    },
    resources: {
      c: authzResources(realm, uuid),
      desired: (a.resources ?? []).map(resourceItem),
      live: (await get<Item[]>(authzResources(realm, uuid).listPath)) ?? [],
    },
    policies: {
      c: { ...authzPolicies(realm, uuid), resolve: policyReferencesExist(realm) },
      desired: (a.policies ?? []).map(policyItem),
      live: allPolicies.filter((p) => !permissionTypes.has(String(p.type))),
    },
    permissions: {
      c: authzPermissions(realm, uuid),
      desired: (a.permissions ?? []).map(permissionItem),
      live: allPolicies.filter((p) => permissionTypes.has(String(p.type))),
    },
  };
  const steps = Object.fromEntries(
    (Object.keys(collections) as Kind[]).map((kind) => {
      const { c, desired, live: items } = collections[kind];
      const managed = new Set(ledger(live.attributes, authzLedgers[kind]).managed);
      if (kind !== 'scopes')
        for (const item of items) if (isKeycloakDefault(kind, item, clientId)) managed.add(c.key(item));
      return [kind, phases(admin, ns, c, desired, items, managed, writes)];
    }),
  ) as Record<Kind, ReturnType<typeof phases>>;
  await steps.scopes.upsert();
  await steps.resources.upsert();
  await steps.policies.upsert();
  await steps.permissions.upsert();
  await steps.permissions.prune();
  await steps.policies.prune();
  await steps.resources.prune();
  await steps.scopes.prune();
  return {
    resources: a.resources?.length ?? 0,
    scopes: a.scopes?.length ?? 0,
    policies: a.policies?.length ?? 0,
    permissions: a.permissions?.length ?? 0,
  };
}
