// Makes a client's authorization services equal to spec.authorization, after the client itself (whose update
// switches them on or off: switched off, Keycloak deletes the resource server with everything in it). Four reads:
// the resource server's export (its settings, and every policy and permission by name), the policy list (their
// ids), the scopes and the resources. Creates and updates go first, in dependency order (scopes, resources,
// policies, permissions), deletions last in the reverse order, so nothing is removed while something the spec still
// declares uses it. Keycloak's Default Resource, Default Policy and Default Permission are removed (they grant every
// user of the realm access to /*); anything made by hand is left alone (see the ledgers).
import type ClientRepresentation from '@keycloak/keycloak-admin-client/lib/defs/clientRepresentation.js';
import type { IdentityClient } from '../../../../generated/types/crds/identityclient.ts';
import { RealmforgeError } from '../../../core/errors.ts';
import {
  permissionItem,
  policyItem,
  resourceItem,
  resourceServerSettings,
  scopeItem,
} from '../../compile/client-authorization.ts';
import type { AdminClient } from '../../keycloak/admin-client.ts';
import {
  authzLedgers,
  authzPermissions,
  authzPolicies,
  authzResources,
  authzScopes,
  isKeycloakDefault,
  permissionTypes,
  resourceServerPath,
} from '../../keycloak/collections/authorization.ts';
import { type Collection, type Item, ledger, syncCollection } from '../../keycloak/collections/collection.ts';
import { policyReferencesExist } from './authorization-references.ts';

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
  const ownership = { by: 'ledger', managed } as const;
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
 * Syncs the authorization services of the client `uuid` (`live`: the client as read before this reconcile's
 * update, whose attributes hold the ledgers). Returns the summary, or undefined when the spec has none.
 */
export async function syncAuthorization(
  admin: AdminClient,
  ns: string,
  realm: string,
  uuid: string,
  client: IdentityClient,
  live: ClientRepresentation,
  writes: string[],
): Promise<AuthorizationSummary | undefined> {
  const a = client.spec.authorization;
  if (!a) return undefined;
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
