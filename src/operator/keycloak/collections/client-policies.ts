// A realm's client profiles and client policies as managed collections. Keycloak keeps each list in one document
// (GET/PUT /client-policies/profiles and /policies take the whole list), so they are written in the collection
// mechanism's document mode: the new list is the items of others as read, plus ours as declared. Neither has
// anywhere to carry an owner: the realm records the names it manages (ledgers in its attributes). Keycloak's
// global profiles are not in the realm's list (read with include-global-profiles=false) and are never written.
// Synced after the realm's own fields: profiles first (a new policy may apply a new profile), then policies, then the
// profiles the spec dropped (no policy applies them any more). Two reads when the spec declares some or the realm's
// ledgers record some, none otherwise; a third only when a profile is to be deleted. A declared profile named like a
// global one is refused; executor and condition types are checked against the server's providers before any write.
import type { IdentityRealm } from '../../../../generated/types/crds/identityrealm.ts';
import { RealmforgeError } from '../../../core/errors.ts';
import type { AdminClient } from '../admin-client.ts';
import { withClientPolicyDocuments } from '../document-lock.ts';
import { hasProvider, type ServerInfo } from '../server-info.ts';
import { type Collection, type Item, type Ledger, ledger, syncCollection } from './collection.ts';
import { ledgerClaim } from './late-ledgers.ts';

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

type Spec = IdentityRealm['spec'];

/** The realm attributes recording what the operator manages (empty ones left out: Keycloak drops them). */
export function clientPolicyLedgers(spec: Spec): Record<string, string> {
  const names = (items: { name: string }[] | undefined) =>
    (items ?? [])
      .map((i) => i.name)
      .sort()
      .join(',');
  const profiles = names(spec.clientPolicies?.profiles);
  const policies = names(spec.clientPolicies?.policies);
  return {
    ...(profiles ? { [clientProfilesLedger]: profiles } : {}),
    ...(policies ? { [clientPoliciesLedger]: policies } : {}),
  };
}

/** What the server cannot honour in spec.clientPolicies: executor and condition types it has no provider for. */
export function clientPolicyRefusals(spec: Spec, info: ServerInfo): string[] {
  const on = info.version ? `Keycloak ${info.version}` : 'this Keycloak';
  const known = (spi: string) => [...(info.providers.get(spi) ?? [])].sort().join(', ') || 'none';
  const problems: string[] = [];
  for (const p of spec.clientPolicies?.profiles ?? [])
    for (const e of p.executors ?? [])
      if (!hasProvider(info, 'client-policy-executor', e.executor))
        problems.push(
          `spec.clientPolicies.profiles[${p.name}].executors: ${on} has no executor "${e.executor}" (its executors: ${known('client-policy-executor')})`,
        );
  for (const p of spec.clientPolicies?.policies ?? [])
    for (const c of p.conditions ?? [])
      if (!hasProvider(info, 'client-policy-condition', c.condition))
        problems.push(
          `spec.clientPolicies.policies[${p.name}].conditions: ${on} has no condition "${c.condition}" (its conditions: ${known('client-policy-condition')})`,
        );
  return problems;
}

type ProfilesDoc = { profiles?: Item[]; globalProfiles?: Item[] };

/** Syncs the realm's client profiles and policies; `liveAttributes`: the realm's attributes before this update. */
export async function syncClientPolicies(
  admin: AdminClient,
  ns: string,
  realm: string,
  spec: Spec,
  liveAttributes: Record<string, unknown> | undefined,
): Promise<string[]> {
  const ownedProfiles = ledger(liveAttributes, clientProfilesLedger);
  const ownedPolicies = ledger(liveAttributes, clientPoliciesLedger);
  const profiles = (spec.clientPolicies?.profiles ?? []).map(clientProfileItem);
  const policies = (spec.clientPolicies?.policies ?? []).map(clientPolicyItem);
  if (!profiles.length && !policies.length && !ownedProfiles.managed.size && !ownedPolicies.managed.size)
    return [];
  return withClientPolicyDocuments(admin, realm, () =>
    writeClientPolicies(admin, ns, realm, {
      profiles,
      policies,
      ownedProfiles,
      ownedPolicies,
      adopt: spec.adoptExisting,
    }),
  );
}

/** The documents' read-change-write, under the realm's document lock (document-lock.ts). */
async function writeClientPolicies(
  admin: AdminClient,
  ns: string,
  realm: string,
  wanted: {
    profiles: Item[];
    policies: Item[];
    ownedProfiles: Ledger;
    ownedPolicies: Ledger;
    adopt?: boolean;
  },
): Promise<string[]> {
  const { profiles, policies, ownedProfiles, ownedPolicies, adopt } = wanted;
  const realmPath = `/${enc(realm)}`;
  const profileOptions = { adopt, claim: ledgerClaim(admin, ns, realmPath, clientProfilesLedger) };
  const profileC = clientProfiles(realm);
  const policyC = clientPolicies(realm);
  const read = async <T>(path: string) => (await admin.call<T>(ns, 'GET', path)).body;
  const doc = (await read<ProfilesDoc>(profileC.listPath.replace('=false', '=true'))) ?? {};
  const global = new Set((doc.globalProfiles ?? []).map((p) => String(p.name)));
  for (const p of profiles)
    if (global.has(String(p.name)))
      throw new RealmforgeError(
        'validation',
        `spec.clientPolicies.profiles[${String(p.name)}]: "${String(p.name)}" is one of Keycloak's global profiles, which the operator never changes; choose another name (a policy may apply the global profile by its name)`,
      );
  const liveProfiles = doc.profiles ?? [];
  const declared = new Set(profiles.map((p) => profileC.key(p)));
  const leftovers = liveProfiles.filter(
    (p) => ownedProfiles.managed.has(profileC.key(p)) && !declared.has(profileC.key(p)),
  );
  const writes: string[] = [];
  const upsert = await syncCollection(admin, ns, profileC, [...profiles, ...leftovers], ownedProfiles, {
    ...profileOptions,
    live: liveProfiles,
  });
  writes.push(...upsert.writes);
  const livePolicies = (await read<{ policies?: Item[] }>(policyC.listPath))?.policies ?? [];
  writes.push(
    ...(
      await syncCollection(admin, ns, policyC, policies, ownedPolicies, {
        adopt,
        live: livePolicies,
        claim: ledgerClaim(admin, ns, realmPath, clientPoliciesLedger),
      })
    ).writes,
  );
  if (leftovers.length) {
    const now = upsert.writes.length
      ? ((await read<ProfilesDoc>(profileC.listPath))?.profiles ?? [])
      : liveProfiles;
    writes.push(
      ...(
        await syncCollection(admin, ns, profileC, profiles, ownedProfiles, { ...profileOptions, live: now })
      ).writes,
    );
  }
  return writes;
}
