// Organizations (Keycloak >= 26) as a managed collection: the realm's record lists those the operator made
// (section-ownership.ts); hand-made ones are never touched. Domains are a set:
// compared sorted by name. On Keycloak 25 the section is refused with a message naming it, never ignored.
import type { IdentityRealm } from '../../../../generated/types/crds/identityrealm.ts';
import { RealmforgeError } from '../../../core/errors.ts';
import type { AdminClient } from '../admin-client.ts';
import { type Collection, type Item, syncCollection } from './collection.ts';
import { type SectionOwner, sectionLedgers, sectionOwnership } from './section-ownership.ts';

const enc = encodeURIComponent;

type Organization = {
  name: string;
  alias?: string;
  description?: string;
  enabled?: boolean;
  redirectUrl?: string;
  domains: { name: string; verified?: boolean }[];
  attributes?: Record<string, string[]>;
};

const sortedDomains = (domains: unknown) =>
  ((domains as { name: string; verified?: boolean }[] | undefined) ?? [])
    .map((d) => ({ name: d.name, verified: d.verified ?? false }))
    .sort((a, b) => a.name.localeCompare(b.name));

/** A declared organization as Keycloak represents it. */
export function organizationItem(org: Organization): Item {
  return {
    name: org.name,
    ...(org.alias ? { alias: org.alias } : {}),
    ...(org.description ? { description: org.description } : {}),
    enabled: org.enabled ?? true,
    ...(org.redirectUrl ? { redirectUrl: org.redirectUrl } : {}),
    domains: sortedDomains(org.domains),
    attributes: { ...org.attributes },
  };
}

/** The organizations of `realm`. */
export function organizations(realm: string): Collection {
  const base = `/${enc(realm)}/organizations`;
  return {
    noun: 'organization',
    field: 'spec.organizations',
    listPath: `${base}?briefRepresentation=false&max=10000`,
    key: (o) => String(o.name),
    compared: { name: '', description: '', enabled: true, redirectUrl: '', domains: [], attributes: {} },
    canonical: (o) => ({ ...o, domains: sortedDomains(o.domains) }),
    write: { mode: 'each', createPath: base, itemPath: (live) => `${base}/${enc(String(live.id))}` },
  };
}

/** Refuses the section on a Keycloak older than 26 (organizations came with 26). */
export function requireOrganizations(version: string | undefined, declared: boolean): void {
  const major = Number.parseInt(version ?? '', 10);
  if (declared && major < 26)
    throw new RealmforgeError(
      'validation',
      `spec.organizations needs Keycloak 26 or later; this server runs Keycloak ${version}: upgrade the IdentityServer or remove the section`,
    );
}

/** Makes the realm's organizations equal to the spec's (those its record lists); returns the writes. */
export async function syncOrganizations(
  admin: AdminClient,
  ns: string,
  realm: string,
  spec: IdentityRealm['spec'],
  owner: SectionOwner,
  declaredBefore: boolean,
): Promise<string[]> {
  const { ownership, options } = sectionOwnership(admin, ns, owner, sectionLedgers.organizations);
  const desired = (spec.organizations ?? []).map(organizationItem);
  return (
    await syncCollection(admin, ns, organizations(realm), desired, ownership, { ...options, declaredBefore })
  ).writes;
}
