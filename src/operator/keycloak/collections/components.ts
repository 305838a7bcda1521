// Keycloak components as managed collections: a realm's user storage providers (LDAP) and the mappers under
// one provider. Keyed by name. Keycloak keeps only the settings a provider declares (a marker in the config is
// dropped), so ownership is a ledger in the realm's attributes (federation.ts): Keycloak's own components
// (the default LDAP mappers it creates with a provider) and hand-made ones are never touched. Keycloak writes lastSync into a provider's
// config after each synchronisation; it is not the operator's and is not compared.
import { secretMask } from '../../compile/realm/identity-providers.ts';
import { ldapMapperType, userStorageType } from '../../compile/realm/user-federation.ts';
import type { Collection, Item } from './collection.ts';

const enc = encodeURIComponent;
const keycloakWritten = ['lastSync'];

function components(
  realm: string,
  noun: string,
  field: string,
  parentId: string,
  type: string,
): Omit<Collection, 'resolve'> {
  const base = `/${enc(realm)}/components`;
  return {
    noun,
    field,
    listPath: `${base}?parent=${enc(parentId)}&type=${enc(type)}`,
    key: (c) => String(c.name),
    compared: { name: '', providerId: '', providerType: '', parentId: '', config: {} },
    write: { mode: 'each', createPath: base, itemPath: (live) => `${base}/${enc(String(live.id))}` },
    normalize: (live: Item) => {
      const config = { ...(live.config as Record<string, unknown>) };
      for (const key of keycloakWritten) delete config[key];
      return { ...live, config };
    },
  };
}

/** The user storage providers of the realm `realm` (id `realmId`); `secrets`: name -> bind credential. */
export function userStorageProviders(
  realm: string,
  realmId: string,
  secrets: ReadonlyMap<string, string>,
): Collection {
  return {
    ...components(realm, 'user federation provider', 'spec.userFederation', realmId, userStorageType),
    resolve: async (_admin, _ns, desired: Item) => {
      const secret = secrets.get(String(desired.name));
      const config = desired.config as Record<string, string[]>;
      return secret !== undefined && config.bindCredential?.[0] === secretMask
        ? { ...desired, config: { ...config, bindCredential: [secret] } }
        : desired;
    },
  };
}

/** The mappers under the LDAP provider `provider` (component id `providerId`). */
export function ldapMappers(realm: string, provider: string, providerId: string): Collection {
  return components(
    realm,
    `LDAP mapper (${provider})`,
    `spec.userFederation.ldap[${provider}].mappers`,
    providerId,
    ldapMapperType,
  );
}
