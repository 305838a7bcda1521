// A realm's identity providers as a managed collection, keyed by alias and owned by a config marker. The client
// secret is compared by its hash (compile/realm/identity-providers.ts); resolve puts the Secret's value in place
// of Keycloak's mask only in what is sent.
import { secretMask } from '../../compile/realm/identity-providers.ts';
import type { Collection, Item } from './collection.ts';

const enc = encodeURIComponent;

/** The identity providers of `realm`; `secrets`: alias -> client secret read from its Secret. */
export function identityProviders(
  realm: string,
  keycloakMajor: number,
  secrets: ReadonlyMap<string, string>,
): Collection {
  const base = `/${enc(realm)}/identity-provider/instances`;
  return {
    noun: 'identity provider',
    field: 'spec.identityProviders',
    listPath: base,
    key: (i) => String(i.alias),
    compared: {
      alias: '',
      providerId: '',
      displayName: '',
      enabled: true,
      trustEmail: false,
      storeToken: false,
      linkOnly: false,
      ...(keycloakMajor >= 26 ? { hideOnLogin: false } : {}),
      firstBrokerLoginFlowAlias: '',
      postBrokerLoginFlowAlias: '',
      config: {},
    },
    write: { mode: 'each', createPath: base, itemPath: (live) => `${base}/${enc(String(live.alias))}` },
    resolve: async (_admin, _ns, desired: Item) => {
      const secret = secrets.get(String(desired.alias));
      const config = desired.config as Record<string, string>;
      return secret !== undefined && config.clientSecret === secretMask
        ? { ...desired, config: { ...config, clientSecret: secret } }
        : desired;
    },
  };
}
