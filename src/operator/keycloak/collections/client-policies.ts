// A realm's client profiles and client policies as managed collections. Keycloak keeps each list in one document
// (GET/PUT /client-policies/profiles and /policies take the whole list), so they are written in the collection
// mechanism's document mode: the new list is the items of others as read, plus ours as declared. Neither has
// anywhere to carry an owner: the realm records the names it manages (ledgers in its attributes). Keycloak's
// global profiles are not in the realm's list (read with include-global-profiles=false) and are never written.
import type { Collection, Item } from './collection.ts';

const enc = encodeURIComponent;

/** The realm attributes listing the profiles and policies the operator manages. */
export const clientProfilesLedger = 'realmforge.dev/client-profiles';
export const clientPoliciesLedger = 'realmforge.dev/client-policies';

/** Where a realm's client profiles and policies live. */
export const clientPolicyPaths = (realm: string) => ({
  profiles: `/${enc(realm)}/client-policies/profiles`,
  policies: `/${enc(realm)}/client-policies/policies`,
});

type Provider = { configuration?: object };
type Profile = { name: string; description?: string; executors?: ({ executor: string } & Provider)[] };
type Policy = {
  name: string;
  description?: string;
  enabled?: boolean;
  conditions?: ({ condition: string } & Provider)[];
  profiles: string[];
};

/** A declared profile as Keycloak represents it. */
export const clientProfileItem = (p: Profile): Item => ({
  name: p.name,
  description: p.description ?? '',
  executors: (p.executors ?? []).map((e) => ({ executor: e.executor, configuration: e.configuration ?? {} })),
});

/** A declared policy as Keycloak represents it. */
export const clientPolicyItem = (p: Policy): Item => ({
  name: p.name,
  description: p.description ?? '',
  enabled: p.enabled ?? true,
  conditions: (p.conditions ?? []).map((c) => ({
    condition: c.condition,
    configuration: c.configuration ?? {},
  })),
  profiles: [...p.profiles].sort(),
});

/** The client profiles of `realm` (the realm's own, global ones aside). */
export function clientProfiles(realm: string): Collection {
  const path = clientPolicyPaths(realm).profiles;
  return {
    noun: 'client profile',
    field: 'spec.clientPolicies.profiles',
    listPath: `${path}?include-global-profiles=false`,
    key: (p) => String(p.name),
    compared: { name: '', description: '', executors: [] },
    write: {
      mode: 'document',
      path,
      wrap: (profiles) => ({ profiles }),
      unwrap: (doc) => (doc as { profiles?: Item[] } | undefined)?.profiles,
    },
  };
}

/** The client policies of `realm`; the profiles a policy applies are a set. */
export function clientPolicies(realm: string): Collection {
  const path = clientPolicyPaths(realm).policies;
  return {
    noun: 'client policy',
    field: 'spec.clientPolicies.policies',
    listPath: `${path}?include-global-policies=false`,
    key: (p) => String(p.name),
    compared: { name: '', description: '', enabled: true, conditions: [], profiles: [] },
    canonical: (p) => ({ ...p, profiles: [...((p.profiles as string[]) ?? [])].sort() }),
    write: {
      mode: 'document',
      path,
      wrap: (policies) => ({ policies }),
      unwrap: (doc) => (doc as { policies?: Item[] } | undefined)?.policies,
    },
  };
}
