// The sections whose items used to carry an owner mark of their own (realm roles, groups, client scopes,
// organizations, identity providers and their mappers, client roles) are recorded like every other section: their
// keys in the parent's ownership record (record.ts), claimed before an item is created, the whole list written with
// the parent's update. An item an earlier version marked stays ours by that mark until the record lists it.
import type { IdentityRealm } from '../../../../generated/types/crds/identityrealm.ts';
import type { AdminClient } from '../admin-client.ts';
import {
  attributeMark,
  itemLedger,
  itemLedgerAttribute,
  type Ledger,
  type LegacyMark,
  ledgerEntry,
  type SyncOptions,
} from './collection.ts';
import { ledgerClaim } from './late-ledgers.ts';

/** The record entries of these sections (each key encoded: a name may hold a comma). */
export const sectionLedgers = {
  roles: 'realmforge.dev/managed-roles',
  groups: 'realmforge.dev/managed-groups',
  clientScopes: 'realmforge.dev/managed-client-scopes',
  organizations: 'realmforge.dev/managed-organizations',
  identityProviders: 'realmforge.dev/managed-identity-providers',
  identityProviderMappers: 'realmforge.dev/managed-identity-provider-mappers',
} as const;

/** Whose the sections of a realm or client are: its resource, whether it asked for adoption, its record as read
 * before this sync (its attributes, opened) and where it is (`/<realm>`, `/<realm>/clients/<id>`). */
export type SectionOwner = {
  readonly owner: string;
  readonly adopt?: boolean;
  readonly recorded: Record<string, unknown> | undefined;
  readonly path: string;
};

/** The ownership of one section and the sync options that go with it: adoption as asked, keys claimed in the
 * record (`entry`: a key as its record entry, encoded by default). */
export function sectionOwnership(
  admin: AdminClient,
  ns: string,
  s: SectionOwner,
  name: string,
  options: { legacy?: LegacyMark; managed?: ReadonlySet<string>; entry?: (key: string) => string } = {},
): { ownership: Ledger; options: SyncOptions } {
  const base = itemLedger(s.recorded, name, options.legacy ?? attributeMark(s.owner));
  const ownership = options.managed ? { ...base, managed: options.managed } : base;
  const entry = options.entry ?? ledgerEntry;
  return {
    ownership,
    options: { ...(s.adopt ? { adopt: true } : {}), claim: ledgerClaim(admin, ns, s.path, name, entry) },
  };
}

/** The realm's record entries of these sections as the spec declares them (each absent when empty). */
export function sectionLedgerAttributes(spec: IdentityRealm['spec']): Record<string, string> {
  const idps = spec.identityProviders ?? [];
  return {
    ...itemLedgerAttribute(
      sectionLedgers.roles,
      (spec.roles ?? []).map((r) => r.name),
    ),
    ...itemLedgerAttribute(
      sectionLedgers.groups,
      (spec.groups ?? []).map((g) => `${g.parent ?? ''}/${g.name}`),
    ),
    ...itemLedgerAttribute(
      sectionLedgers.clientScopes,
      (spec.clientScopes ?? []).map((c) => c.name),
    ),
    ...itemLedgerAttribute(
      sectionLedgers.organizations,
      (spec.organizations ?? []).map((o) => o.name),
    ),
    ...itemLedgerAttribute(
      sectionLedgers.identityProviders,
      idps.map((i) => i.alias),
    ),
    ...itemLedgerAttribute(
      sectionLedgers.identityProviderMappers,
      idps.flatMap((i) => (i.mappers ?? []).map((m) => `${i.alias}/${m.name}`)),
    ),
  };
}

/** The ledgers of the sections synced after the realm's own update (late-ledgers.ts), and of those synced before
 * it (deferrable: written with it when it is sent, else with the later write). */
export const realmLateSectionLedgers = [
  sectionLedgers.roles,
  sectionLedgers.groups,
  sectionLedgers.clientScopes,
];
export const realmEarlySectionLedgers = [
  sectionLedgers.organizations,
  sectionLedgers.identityProviders,
  sectionLedgers.identityProviderMappers,
];

/** Only these sections' entries of a realm's attributes (a realm just created: what its create call recorded). */
export const sectionEntries = (attributes: Record<string, unknown> | undefined) =>
  Object.fromEntries(
    Object.entries(attributes ?? {}).filter(([k]) => (Object.values(sectionLedgers) as string[]).includes(k)),
  );
