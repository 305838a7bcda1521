// A realm's required actions as a managed collection. Keycloak provides them (they are never created or deleted),
// so "taking one back" means putting back the settings it had before the spec first declared it: those are kept
// in a realm attribute (realmforge.dev/required-actions-before, alias -> {enabled, defaultAction, priority}),
// recorded in the realm update that precedes the first change, and dropped once the action is back at them.
// So the section is synced in two steps around the realm update: planned before it (the live actions read once,
// the settings from before the spec recorded for newly declared ones, kept for undeclared ones until they are
// back), applied after it. An action stays in the record until it is back at its recorded settings, so a
// reconcile cut short between the update and the reset never loses what to reset to.
import type RequiredActionProviderRepresentation from '@keycloak/keycloak-admin-client/lib/defs/requiredActionProviderRepresentation.js';
import type { IdentityRealm } from '../../../../generated/types/crds/identityrealm.ts';
import { RealmforgeError } from '../../../core/errors.ts';
import { canonicalJson } from '../../runtime/desired-state.ts';
import type { AdminClient } from '../admin-client.ts';
import { type Collection, type Item, syncCollection } from './collection.ts';

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

type Spec = IdentityRealm['spec'];

/** The realm attributes to write with the update, and the step that applies the actions after it. */
export type RequiredActionsPlan = { attributes: Record<string, string>; apply: () => Promise<string[]> };

function recorded(live: Item): Record<string, ActionSettings> {
  const raw = (live.attributes as Record<string, unknown> | undefined)?.[requiredActionsBefore];
  const text = Array.isArray(raw) ? String(raw[0] ?? '') : String(raw ?? '');
  try {
    return text ? (JSON.parse(text) as Record<string, ActionSettings>) : {};
  } catch {
    return {};
  }
}

/** Plans the required actions of `realm` from the realm as read before this sync. */
export async function planRequiredActions(
  admin: AdminClient,
  ns: string,
  realm: string,
  spec: Spec,
  liveRealm: Item,
): Promise<RequiredActionsPlan> {
  const before = recorded(liveRealm);
  const declared = spec.requiredActions ?? [];
  if (!declared.length && !Object.keys(before).length) return { attributes: {}, apply: async () => [] };
  const collection = requiredActions(realm);
  const live = (await admin.call<Item[]>(ns, 'GET', collection.listPath)).body ?? [];
  const byAlias = new Map(live.map((a) => [String(a.alias), a]));
  const unknown = declared.filter((a) => !byAlias.has(a.alias));
  if (unknown.length)
    throw new RealmforgeError(
      'validation',
      `spec.requiredActions: Keycloak has no required action ${unknown.map((a) => `"${a.alias}"`).join(', ')} in realm ${realm} (it has ${[...byAlias.keys()].sort().join(', ')})`,
    );
  const record: Record<string, ActionSettings> = {};
  const desired: Item[] = [];
  for (const action of declared) {
    const have = byAlias.get(action.alias) as Item;
    const original = before[action.alias] ?? settingsOf(have);
    record[action.alias] = original;
    desired.push({ ...have, ...original, ...withoutUndefined(action) });
  }
  for (const [alias, original] of Object.entries(before)) {
    const have = byAlias.get(alias);
    if (!have || declared.some((a) => a.alias === alias)) continue;
    desired.push({ ...have, ...original });
    // Kept until the action is back at its settings (a reset interrupted is retried).
    if (canonicalJson(settingsOf(have)) !== canonicalJson(original)) record[alias] = original;
  }
  const attributes: Record<string, string> = Object.keys(record).length
    ? { [requiredActionsBefore]: canonicalJson(record) }
    : {};
  const managed = new Set(desired.map((a) => String(a.alias)));
  const apply = async () =>
    (await syncCollection(admin, ns, collection, desired, { managed }, { live })).writes;
  return { attributes, apply };
}

const withoutUndefined = (action: NonNullable<Spec['requiredActions']>[number]) =>
  Object.fromEntries(
    Object.entries({
      enabled: action.enabled,
      defaultAction: action.defaultAction,
      priority: action.priority,
    }).filter(([, v]) => v !== undefined),
  );
