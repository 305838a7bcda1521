// An IdentityRealm's LDAP user federation (spec.userFederation.ldap) as Keycloak components (its Kerberos settings:
// kerberos.ts). Keycloak keeps a component's settings as lists of strings; every setting the operator manages is
// sent explicitly (Keycloak's default when the spec is silent), so what Keycloak answers compares equal. Keycloak keeps only the settings an
// LDAP provider declares (an owner marker or a hash in its config is dropped), so the realm records the keyed
// hash of each bind password (attribute realmforge.dev/ldap-bind-hash.<name>); the component carries Keycloak's
// mask, and the password itself only when the recorded hash differs (a changed Secret is then drift).
import type { LdapProvider } from '../../../../generated/types/crds/federation.ts';
import { ValidationError } from '../../../core/errors.ts';
import { secretHash } from '../secret-hash.ts';
import { secretMask } from './identity-providers.ts';
import { ldapKerberosConfig } from './kerberos.ts';

export const userStorageType = 'org.keycloak.storage.UserStorageProvider';
export const ldapMapperType = 'org.keycloak.storage.ldap.mappers.LDAPStorageMapper';

const list = (value: string | number | boolean) => [String(value)];

/** The realm attribute recording the hash of LDAP provider `name`'s bind password. */
export const ldapBindHashAttribute = (name: string) => `realmforge.dev/ldap-bind-hash.${name}`;
/** The keyed hash of a bind password (`key`: the server's hash key). */
export const ldapBindHash = (key: string, realm: string, name: string, password: string) =>
  secretHash(key, `${realm}/ldap/${name}`, password);

/** One LDAP provider as a Keycloak component (without its mappers); `bindCredential` read from its Secret,
 * `sent` whether the realm's recorded hash says Keycloak has that password already (it is then masked). */
export function compileLdapProvider(
  parentId: string,
  ldap: LdapProvider,
  index: number,
  bindCredential: string | undefined,
  sent = false,
  keytabs: ReadonlyMap<string, string> = new Map(),
): Record<string, unknown> {
  if (ldap.bindDn && bindCredential === undefined)
    throw new ValidationError(
      `spec.userFederation.ldap[${index}] (${ldap.name}): bindDn needs bindCredentialRef (the bind password from a Secret)`,
    );
  const settings: Record<string, string | number | boolean | undefined> = {
    enabled: ldap.enabled ?? true,
    priority: ldap.priority ?? 0,
    vendor: ldap.vendor ?? 'other',
    connectionUrl: ldap.connectionUrl,
    authType: ldap.bindDn ? 'simple' : 'none',
    bindDn: ldap.bindDn,
    usersDn: ldap.usersDn,
    usernameLDAPAttribute: ldap.usernameAttribute ?? 'uid',
    rdnLDAPAttribute: ldap.rdnAttribute ?? 'uid',
    uuidLDAPAttribute: ldap.uuidAttribute ?? 'entryUUID',
    userObjectClasses: (ldap.userObjectClasses ?? ['inetOrgPerson', 'organizationalPerson']).join(', '),
    customUserSearchFilter: ldap.customUserSearchFilter,
    searchScope: (ldap.searchScope ?? 'OneLevel') === 'OneLevel' ? 1 : 2,
    editMode: ldap.editMode ?? 'READ_ONLY',
    importEnabled: ldap.importEnabled ?? true,
    syncRegistrations: ldap.syncRegistrations ?? false,
    fullSyncPeriod: ldap.fullSyncPeriodSeconds ?? -1,
    changedSyncPeriod: ldap.changedSyncPeriodSeconds ?? -1,
    batchSizeForSync: ldap.batchSizeForSync ?? 1000,
    pagination: ldap.pagination ?? true,
    connectionPooling: ldap.connectionPooling ?? true,
    connectionTimeout: ldap.connectionTimeoutMs,
    readTimeout: ldap.readTimeoutMs,
    startTls: ldap.startTls ?? false,
    useTruststoreSpi: ldap.useTruststoreSpi ?? 'always',
    trustEmail: ldap.trustEmail ?? false,
  };
  const config: Record<string, string[]> = Object.fromEntries(
    Object.entries(settings)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, list(v as string)]),
  );
  const field = `spec.userFederation.ldap[${index}] (${ldap.name})`;
  Object.assign(
    config,
    ldapKerberosConfig(ldap.kerberos, ldap.useKerberosForPasswordAuthentication, field, keytabs),
  );
  if (bindCredential !== undefined) config.bindCredential = [sent ? secretMask : bindCredential];
  return { name: ldap.name, providerId: 'ldap', providerType: userStorageType, parentId, config };
}

/** The mappers declared for one LDAP provider, as components under it (`parentId`: the provider's id). */
export function compileLdapMappers(ldap: LdapProvider, parentId: string): Record<string, unknown>[] {
  return (ldap.mappers ?? []).map((m) => ({
    name: m.name,
    providerId: m.type,
    providerType: ldapMapperType,
    parentId,
    config: Object.fromEntries(Object.entries(m.config ?? {}).map(([k, v]) => [k, [v]])),
  }));
}
