// A realm's federation sections: its identity providers (with their mappers), LDAP providers (with the mappers
// declared for them) and Kerberos providers, through the one collection reconciler: items are owned by a config
// marker or a realm ledger, so what Keycloak creates by itself (the default LDAP mappers) and what is made by hand
// is never touched, and an item the spec stops declaring is deleted (Keycloak deletes an identity provider's
// mappers, and an LDAP provider's imported users, with it). A steady resync reads each collection the spec declares
// (or declared last time) once, and the mappers of each declared provider once.
import type { IdentityRealm } from '../../../../generated/types/crds/identityrealm.ts';
import {
  compileIdentityProvider,
  compileIdentityProviderMappers,
} from '../../compile/realm/identity-providers.ts';
import { checkProviderNames, compileKerberosProvider } from '../../compile/realm/kerberos.ts';
import {
  compileLdapMappers,
  compileLdapProvider,
  ldapBindHash,
  ldapBindHashAttribute,
} from '../../compile/realm/user-federation.ts';
import type { AdminClient } from '../admin-client.ts';
import { configMark, type Item, itemLedger, ledger, ledgerEntry, syncCollection } from './collection.ts';
import { ldapMappers, userStorageProviders } from './components.ts';
import { identityProviderMappers } from './identity-provider-mappers.ts';
import { identityProviders } from './identity-providers.ts';
import { ledgerClaim } from './late-ledgers.ts';
import { sectionEntries, sectionLedgers, sectionOwnership } from './section-ownership.ts';

/** The Secrets the federation sections refer to: client secrets and signing keys by identity provider alias, bind
 * passwords by LDAP provider name. */
export type FederationSecrets = {
  readonly identityProviders: ReadonlyMap<string, string>;
  readonly ldap: ReadonlyMap<string, string>;
  readonly signingKeys?: ReadonlyMap<string, string>;
};

/** Where the federation sections are synced and what the last reconcile declared. */
export type FederationTarget = {
  readonly ns: string;
  readonly realmName: string;
  readonly realmId: string;
  readonly owner: string;
  readonly keycloakMajor: number;
  readonly secrets: FederationSecrets;
  /** The keytabs the realm's IdentityServer declares: name -> the path Keycloak reads (compile/kerberos-keytabs.ts). */
  readonly keytabs?: ReadonlyMap<string, string>;
  /** The server's hash key (controllers/identity-realm/server-hash-key.ts), read when the realm names secrets. */
  readonly hashKey?: string;
  /** The realm's attributes before this reconcile wrote anything (its LDAP ledgers and password hashes). */
  readonly liveAttributes: Record<string, unknown>;
  /** Whether the spec declared identity providers / LDAP providers last time (the realm's field record). */
  declaredBefore(collection: 'identityProviders' | 'userFederation'): boolean;
  /** A new realm's create call carried the identity providers and their mappers (realm-create-sections.ts): they
   * are neither read nor written, and each is new (its checks are due). */
  readonly identityProvidersCarried?: boolean;
};

/** The LDAP providers the operator manages in Keycloak after the sync (name -> component id), and the providers
 * it created or updated (`ldap/<name>`, `idp/<alias>`: their checks are due, controllers/identity-realm/federation-status.ts). */
export type FederationSyncResult = { writes: string[]; ldapIds: Map<string, string>; written: Set<string> };

/** The keys of the items a collection sync created or updated, from its writes (`create <noun> <key>`). */
function writtenKeys(writes: readonly string[], noun: string, prefix: string): string[] {
  const verbs = [`create ${noun} `, `update ${noun} `];
  return writes.flatMap((w) => {
    const verb = verbs.find((v) => w.startsWith(v));
    return verb ? [`${prefix}/${w.slice(verb.length)}`] : [];
  });
}

/** The realm attributes recording the user storage providers (LDAP and Kerberos: the attribute keeps its first
 * name) and the LDAP mappers the operator manages (ledgers: Keycloak keeps no owner marker in a component's config). */
export const ldapProvidersLedger = 'realmforge.dev/ldap-providers';
export const ldapMappersLedger = 'realmforge.dev/ldap-mappers';

/** What a new realm's create call recorded that its federation sync reads: the sections' entries and the LDAP
 * ledgers (the providers and mappers are claimed already), not the bind passwords' hashes (no password was sent). */
export function createdRealmEntries(attributes: Record<string, unknown> | undefined) {
  const ledgers = [ldapProvidersLedger, ldapMappersLedger].filter((k) => attributes?.[k] !== undefined);
  return { ...sectionEntries(attributes), ...Object.fromEntries(ledgers.map((k) => [k, attributes?.[k]])) };
}

/** The realm attributes the federation sections want: the LDAP ledgers and each bind password's hash. */
export function federationAttributes(
  realm: IdentityRealm,
  realmName: string,
  secrets: FederationSecrets,
  hashKey: string | undefined,
): Record<string, string> {
  const ldap = realm.spec.userFederation?.ldap ?? [];
  const kerberos = realm.spec.userFederation?.kerberos ?? [];
  const names = [...ldap, ...kerberos].map((p) => p.name).sort();
  const mappers = ldap.flatMap((p) => (p.mappers ?? []).map((m) => `${p.name}/${m.name}`)).sort();
  const hashes = ldap.flatMap((p) => {
    const secret = secrets.ldap.get(p.name);
    return secret === undefined || hashKey === undefined
      ? []
      : [[ldapBindHashAttribute(p.name), ldapBindHash(hashKey, realmName, p.name, secret)]];
  });
  return {
    ...(names.length ? { [ldapProvidersLedger]: names.join(',') } : {}),
    ...(mappers.length ? { [ldapMappersLedger]: mappers.join(',') } : {}),
    ...Object.fromEntries(hashes),
  };
}

const attribute = (attrs: Record<string, unknown>, name: string) => {
  const v = attrs[name];
  return Array.isArray(v) ? (v[0] as string | undefined) : (v as string | undefined);
};

/** Compiles every federation item first, so a refused field writes nothing. */
export function compileAll(realm: IdentityRealm, t: FederationTarget) {
  const idps = (realm.spec.identityProviders ?? []).map((idp, i) =>
    compileIdentityProvider(t.realmName, idp, i, {
      clientSecret: t.secrets.identityProviders.get(idp.alias),
      signingKey: t.secrets.signingKeys?.get(idp.alias),
      keycloakMajor: t.keycloakMajor,
      hashKey: t.hashKey,
    }),
  );
  const ldap = (realm.spec.userFederation?.ldap ?? []).map((p, i) => {
    const password = t.secrets.ldap.get(p.name);
    const recorded = attribute(t.liveAttributes, ldapBindHashAttribute(p.name));
    const sent =
      password !== undefined &&
      t.hashKey !== undefined &&
      recorded === ldapBindHash(t.hashKey, t.realmName, p.name, password);
    return compileLdapProvider(t.realmId, p, i, password, sent, t.keytabs);
  });
  const kerberosSpec = realm.spec.userFederation?.kerberos ?? [];
  checkProviderNames(realm.spec.userFederation?.ldap ?? [], kerberosSpec);
  const kerberos = kerberosSpec.map((k, i) =>
    compileKerberosProvider(t.realmId, k, i, t.keytabs ?? new Map()),
  );
  return { idps, ldap, kerberos };
}

/** Syncs the identity providers and the user federation of one realm. */
export async function syncFederation(
  admin: AdminClient,
  realm: IdentityRealm,
  t: FederationTarget,
): Promise<FederationSyncResult> {
  const { idps, ldap, kerberos } = compileAll(realm, t);
  const writes: string[] = [];
  const realmPath = `/${encodeURIComponent(t.realmName)}`;
  const idpWrites = t.identityProvidersCarried ? [] : await syncIdentityProviders(admin, realm, t, idps);
  writes.push(...idpWrites);
  const providers = userStorageProviders(t.realmName, t.realmId, t.secrets.ldap);
  const ldapResult = await syncCollection(
    admin,
    t.ns,
    providers,
    [...ldap, ...kerberos],
    ledger(t.liveAttributes, ldapProvidersLedger),
    { adopt: realm.spec.adoptExisting, claim: ledgerClaim(admin, t.ns, realmPath, ldapProvidersLedger) },
  );
  writes.push(...ldapResult.writes);
  const written = new Set([
    ...(t.identityProvidersCarried
      ? (realm.spec.identityProviders ?? []).map((i) => `idp/${i.alias}`)
      : writtenKeys(idpWrites, 'identity provider', 'idp')),
    ...writtenKeys(ldapResult.writes, providers.noun, 'ldap'),
  ]);
  const live = ldapResult.created
    ? ((await admin.call<Item[]>(t.ns, 'GET', providers.listPath)).body ?? [])
    : ldapResult.live;
  const ldapIds = new Map<string, string>();
  for (const p of realm.spec.userFederation?.ldap ?? []) {
    const id = live.find((c) => c.name === p.name)?.id;
    if (typeof id !== 'string') continue;
    ldapIds.set(p.name, id);
    const result = await syncCollection(
      admin,
      t.ns,
      ldapMappers(t.realmName, p.name, id),
      compileLdapMappers(p, id),
      { ...mapperLedger(t.liveAttributes, p.name), keycloak: keycloakLdapMappers },
      {
        adopt: realm.spec.adoptExisting,
        claim: ledgerClaim(admin, t.ns, realmPath, ldapMappersLedger, (m) => `${p.name}/${m}`),
      },
    );
    writes.push(...result.writes);
  }
  return { writes, ldapIds, written };
}

/** Syncs the identity providers and their mappers; returns the writes. */
async function syncIdentityProviders(
  admin: AdminClient,
  realm: IdentityRealm,
  t: FederationTarget,
  idps: Item[],
): Promise<string[]> {
  const owner = {
    owner: t.owner,
    adopt: realm.spec.adoptExisting,
    recorded: t.liveAttributes,
    path: `/${encodeURIComponent(t.realmName)}`,
  };
  const legacy = configMark(t.owner);
  const idpSection = sectionOwnership(admin, t.ns, owner, sectionLedgers.identityProviders, {
    legacy,
  });
  const idpResult = await syncCollection(
    admin,
    t.ns,
    identityProviders(t.realmName, t.keycloakMajor, t.secrets.identityProviders),
    idps,
    idpSection.ownership,
    { ...idpSection.options, declaredBefore: t.declaredBefore('identityProviders') },
  );
  const writes = [...idpResult.writes];
  const idpMappers = sectionLedgers.identityProviderMappers;
  const recordedMappers = itemLedger(t.liveAttributes, idpMappers).managed;
  for (const idp of realm.spec.identityProviders ?? []) {
    const created = !idpResult.live.some((l) => l.alias === idp.alias);
    const prefix = `${idp.alias}/`;
    const mine = [...recordedMappers].filter((k) => k.startsWith(prefix)).map((k) => k.slice(prefix.length));
    const section = sectionOwnership(admin, t.ns, owner, idpMappers, {
      legacy,
      managed: new Set(mine),
      entry: (name) => ledgerEntry(prefix + name),
    });
    const result = await syncCollection(
      admin,
      t.ns,
      identityProviderMappers(t.realmName, idp.alias),
      compileIdentityProviderMappers(idp),
      section.ownership,
      // A provider created just now has no mappers to read; one that existed may have some to prune.
      { ...section.options, ...(created ? { live: [], declaredBefore: false } : { declaredBefore: true }) },
    );
    writes.push(...result.writes);
  }
  return writes;
}

/** The mappers Keycloak adds to a new LDAP provider by itself: declaring one configures it. */
const keycloakLdapMappers = new Set([
  'username',
  'email',
  'first name',
  'last name',
  'creation date',
  'modify date',
  'Kerberos principal attribute mapper',
  'MSAD account controls',
]);

/** The mapper names recorded for LDAP provider `provider` (`provider/mapper` entries of the realm's ledger). */
function mapperLedger(attrs: Record<string, unknown>, provider: string) {
  const all = ledger(attrs, ldapMappersLedger).managed;
  const prefix = `${provider}/`;
  return {
    managed: new Set([...all].filter((k) => k.startsWith(prefix)).map((k) => k.slice(prefix.length))),
  };
}
