// The pure half of the collection mechanism (collection.ts): from what the spec declares, what Keycloak has and
// who owns it, what a sync would write. No read, no write, no await: a plan can be shown without being applied,
// and conflicts are data, so the executor (apply-plan.ts) refuses a plan with any of them before its first write.
// The rule, for every collection (docs/ownership.md): a declared item that is missing is created; one that is
// ours (or Keycloak's own, or adopted) is updated when it differs; a declared one that is someone else's is a
// conflict; an item of ours no longer declared is deleted; anything else is left alone.
import { canonicalJson } from '../../runtime/desired-state.ts';
import type { Collection, Item, Ownership } from './collection.ts';

/** A declared item that exists and is not the operator's: its key, where it is declared, whose it is (an earlier
 * version's mark naming another owner; none for an unrecorded item) and what the user is told. */
export type Conflict = {
  readonly key: string;
  readonly noun: string;
  readonly field: string;
  readonly owner?: string;
  readonly message: string;
};

/** An item to change: its key, the desired form, the live item. */
export type Update = { readonly key: string; readonly desired: Item; readonly live: Item };

/** What a sync of one collection writes: items to create (desired), to update, to delete (live), the
 * conflicts that forbid all of it, and `claim`: the declared keys a ledger does not record yet (recorded before
 * any item is created or adopted, so a crash in between never makes an item of ours look like a person's). */
export type Plan = {
  readonly create: readonly Item[];
  readonly update: readonly Update[];
  readonly delete: readonly Item[];
  readonly conflicts: readonly Conflict[];
  readonly claim: readonly string[];
};

/** An attribute holding an empty string is no attribute: Keycloak keeps string attributes an update empties
 * (client scopes) and does not remove what an update leaves out. Other maps (mapper config) are replaced whole. */
const withoutEmpty = (field: string, value: unknown) =>
  field === 'attributes' && value && typeof value === 'object' && !Array.isArray(value)
    ? Object.fromEntries(Object.entries(value).filter(([, v]) => v !== ''))
    : value;

/** The compared fields of an item, in the form compared, each defaulting to its empty value. */
export function comparedPart(c: Collection, raw: Item): Item {
  const item = c.canonical?.(raw) ?? raw;
  return Object.fromEntries(
    Object.entries(c.compared).map(([f, empty]) => [f, withoutEmpty(f, item[f] ?? empty)]),
  );
}

/** Whether `live` equals `desired` on the compared fields (maps by key, not by order). */
export function sameItem(c: Collection, desired: Item, live: Item): boolean {
  const seen = c.normalize ? c.normalize(live) : live;
  return canonicalJson(comparedPart(c, desired)) === canonicalJson(comparedPart(c, seen));
}

/** An earlier version's mark on `live`, when it names our owner. */
const legacyOurs = (ownership: Ownership, live: Item) =>
  Boolean(ownership.legacy && ownership.legacy.read(live) === ownership.legacy.owner);

/** Ours when recorded (or marked ours by an earlier version); Keycloak's own may be declared (and is never deleted
 * unless recorded). */
function owned(ownership: Ownership, live: Item, key: string, declared: boolean): boolean {
  if (ownership.managed.has(key) || legacyOurs(ownership, live)) return true;
  return declared && (ownership.keycloak?.has(key) ?? false);
}

function conflict(c: Collection, ownership: Ownership, key: string, live: Item): Conflict {
  const owner = ownership.legacy?.read(live);
  const whose = owner ? `and belongs to ${owner}` : 'and was not created by realmforge';
  return {
    key,
    noun: c.noun,
    field: c.field,
    ...(owner ? { owner } : {}),
    message: `${c.field} declares ${c.noun} "${key}", which already exists ${whose}: rename it in the spec, or delete it in Keycloak`,
  };
}

/** Links and role mappings are their key: there is nothing to update, only to add or remove. */
const updatable = (c: Collection) => c.write.mode !== 'link' && c.write.mode !== 'batch';

/** Whether a declared item that is not ours is taken over: adoption asked for, and not another resource's item (an
 * earlier version's mark naming another owner). */
const adopts = (ownership: Ownership, have: Item, asked?: boolean) =>
  Boolean(asked) && !ownership.legacy?.read(have);

/**
 * Plans `c` equal to `desired` for the items the operator owns, from the `live` items as read. `adopt` takes
 * over declared items that exist and are not ours (only when the resource asked for adoption).
 */
export function planCollection(
  c: Collection,
  desired: readonly Item[],
  live: readonly Item[],
  ownership: Ownership,
  options: { adopt?: boolean } = {},
): Plan {
  const liveByKey = new Map(live.map((item) => [c.key(item), item]));
  const wanted = new Map(desired.map((item) => [c.key(item), item]));
  const create: Item[] = [];
  const update: Update[] = [];
  const conflicts: Conflict[] = [];
  for (const [key, want] of wanted) {
    const have = liveByKey.get(key);
    if (!have) create.push(want);
    else if (!owned(ownership, have, key, true) && !adopts(ownership, have, options.adopt))
      conflicts.push(conflict(c, ownership, key, have));
    else if (updatable(c) && !sameItem(c, want, ownership.legacy?.strip(have) ?? have))
      update.push({ key, desired: want, live: have });
  }
  const remove = [...liveByKey].filter(
    ([key, have]) => !wanted.has(key) && owned(ownership, have, key, false),
  );
  // An item an earlier version marked ours is recorded by the parent's next update, not claimed.
  const claim = [...wanted.keys()].filter(
    (k) =>
      !ownership.managed.has(k) && !(liveByKey.has(k) && legacyOurs(ownership, liveByKey.get(k) as Item)),
  );
  return { create, update, delete: remove.map(([, have]) => have), conflicts, claim };
}
