// A realm's required actions as a managed collection. Keycloak provides them (they are never created or deleted),
// so "taking one back" means putting back the settings it had before the spec first declared it: those are kept
// in a realm attribute (realmforge.dev/required-actions-before, alias -> {enabled, defaultAction, priority}),
// recorded in the realm update that precedes the first change, and dropped once the action is back at them.
import type RequiredActionProviderRepresentation from '@keycloak/keycloak-admin-client/lib/defs/requiredActionProviderRepresentation.js';
import type { Collection, Item } from './collection.ts';

const enc = encodeURIComponent;

/** The realm attribute holding each managed action's settings from before the spec declared it (JSON). */
export const requiredActionsBefore = 'realmforge.dev/required-actions-before';

/** The settings compared and restored. */
export type ActionSettings = Pick<
  RequiredActionProviderRepresentation,
  'enabled' | 'defaultAction' | 'priority'
>;

export const settingsOf = (a: Item): ActionSettings => ({
  enabled: Boolean(a.enabled),
  defaultAction: Boolean(a.defaultAction),
  priority: Number(a.priority ?? 0),
});

/** The required actions of `realm`. */
export function requiredActions(realm: string): Collection {
  const base = `/${enc(realm)}/authentication/required-actions`;
  return {
    noun: 'required action',
    field: 'spec.requiredActions',
    listPath: base,
    key: (a) => String(a.alias),
    compared: { enabled: false, defaultAction: false, priority: 0 },
    // Never created (the alias is checked against the live list first); updated in place.
    write: { mode: 'each', createPath: base, itemPath: (live) => `${base}/${enc(String(live.alias))}` },
  };
}
