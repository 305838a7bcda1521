// A realm's client profiles and policies (spec.clientPolicies), after the realm's own fields. Profiles first
// (a new policy may apply a new profile), then policies, then the profiles the spec dropped (no policy applies them
// any more). Two reads when the spec declares some or the realm's ledgers record some, none otherwise; a third only
// when a profile is to be deleted. Keycloak's global profiles are never written, and a declared profile named like
// one is refused. Executor and condition types are checked against the server's providers before any write.
import type { IdentityRealm } from '../../../../generated/types/crds/identityrealm.ts';
import { RealmforgeError } from '../../../core/errors.ts';
import type { AdminClient } from '../../keycloak/admin-client.ts';
import {
  clientPolicies,
  clientPoliciesLedger,
  clientPolicyItem,
  clientProfileItem,
  clientProfiles,
  clientProfilesLedger,
} from '../../keycloak/collections/client-policies.ts';
import { type Item, type Ledger, ledger, syncCollection } from '../../keycloak/collections/collection.ts';
import { ledgerClaim } from '../../keycloak/collections/late-ledgers.ts';
import { withClientPolicyDocuments } from '../../keycloak/document-lock.ts';
import { hasProvider, type ServerInfo } from '../../keycloak/server-info.ts';

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
  const realmPath = `/${encodeURIComponent(realm)}`;
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
