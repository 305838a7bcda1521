// Ownership of items that have no attributes but a config map (identity providers, their mappers, components):
// the owner is a config entry realmforge.dev/owner, a string for identity providers, a one-item list for
// components (Keycloak keeps component settings as lists).
import { type Marker, ownerAttribute } from './collection.ts';

type Config = Record<string, unknown> | undefined;

/** The owner marker in an item's config. `listValued`: component config (values are lists of strings). */
export function configMarker(owner: string, listValued: boolean): Marker {
  return {
    by: 'marker',
    owner,
    read: (item) => {
      const value = (item.config as Config)?.[ownerAttribute];
      return Array.isArray(value) ? String(value[0] ?? '') || undefined : (value as string | undefined);
    },
    mark: (item) => ({
      ...item,
      config: { ...(item.config as Config), [ownerAttribute]: listValued ? [owner] : owner },
    }),
  };
}
