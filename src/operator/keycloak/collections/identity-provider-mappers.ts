// The mappers of one identity provider as a managed collection, keyed by name and owned by a config marker, so
// mappers made by hand in the admin console are left alone.
import type { Collection } from './collection.ts';

const enc = encodeURIComponent;

/** The mappers of identity provider `alias` in `realm`. */
export function identityProviderMappers(realm: string, alias: string): Collection {
  const base = `/${enc(realm)}/identity-provider/instances/${enc(alias)}/mappers`;
  return {
    noun: `identity provider mapper (${alias})`,
    field: `spec.identityProviders[${alias}].mappers`,
    listPath: base,
    key: (m) => String(m.name),
    compared: { name: '', identityProviderMapper: '', config: {} },
    write: { mode: 'each', createPath: base, itemPath: (live) => `${base}/${enc(String(live.id))}` },
  };
}
