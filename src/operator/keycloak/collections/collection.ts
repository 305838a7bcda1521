// The one reconciler for every Keycloak collection (realm roles, groups, client roles, protocol mappers, role
// mappings, identity providers, components, flows, ...). A collection is declared once: where its items live,
// their natural key, the fields compared, and how ownership is known. A sync observes (reads the live items once),
// plans (plan.ts: pure; creates what is missing, updates what differs, deletes what the operator created and the
// spec no longer declares, never touches an item it did not create) and applies (apply-plan.ts: the whole plan, or
// nothing when it has a conflict).
//
// Ownership is known one way: the parent's ownership record (record.ts) lists the keys of the items the operator
// made or took over, section by section. A key is recorded (claimed) before its item is created, and dropped once
// the item is deleted. A declared item that exists and is not recorded is a NameConflict unless the resource asked
// for adoption; items Keycloak makes itself (a ledger's `keycloak` keys: the built-in user-profile attributes, a new
// realm's scope links) are not a person's. An item an earlier version marked as its own (`legacy`: the owner
// attribute it wrote on the item) counts as recorded, and is recorded by the next update of its parent.
// The states and transitions: docs/ownership.md.
import type { AdminClient } from '../admin-client.ts';
import { applyPlan } from './apply-plan.ts';
import { planCollection } from './plan.ts';

export { ItemConflictError } from './apply-plan.ts';
export { sameItem } from './plan.ts';

/** The attribute that marks a realm or a client (in its record) as one resource's (`namespace/name`); an earlier
 * version also put it on the items it made (LegacyMark). */
export const ownerAttribute = 'realmforge.dev/owner';

/** An item as Keycloak represents it: any JSON object. */
export type Item = Record<string, unknown>;

/** The owner mark an earlier version put on each item it made (an attribute or a config entry): read, and left
 * out when an item is compared (it goes with the item's next update, never with a write of its own). */
export type LegacyMark = {
  readonly owner: string;
  read(item: Item): string | undefined;
  strip(item: Item): Item;
};
/** Ownership by the keys the parent's record lists; `keycloak`: keys of items Keycloak makes itself; `legacy`:
 * items an earlier version marked (ours while no record lists them, another resource's never adopted). */
export type Ledger = {
  readonly managed: ReadonlySet<string>;
  readonly keycloak?: ReadonlySet<string>;
  readonly legacy?: LegacyMark;
};
/** How ownership of live items is known. */
export type Ownership = Ledger;

/** A managed collection, declared once. Paths are relative to `/admin/realms`. */
export type Collection = {
  /** What an item is called in messages and write logs ("realm role"). */
  readonly noun: string;
  /** The spec field that declares the items, for messages ("spec.roles"). */
  readonly field: string;
  /** GET: the live items. */
  readonly listPath: string;
  /** The natural key of a desired or live item. */
  key(item: Item): string;
  /** The fields compared, each with its empty value: a field the spec leaves out is compared (and sent) empty,
   * so removing it from the spec removes it in Keycloak. Other fields are Keycloak's to fill in. */
  readonly compared: Readonly<Record<string, unknown>>;
  /** How items are written: one call per item, arrays posted to and deleted from one path (role mappings), or
   * links added and removed one by one. */
  readonly write:
    | {
        readonly mode: 'each';
        /** Where a new item is posted (per item where the type decides: authorization policies). */
        readonly createPath: string | ((item: Item) => string);
        itemPath(live: Item): string;
      }
    | { readonly mode: 'batch'; readonly path: string }
    /** Links to existing objects (a realm's default client scopes): PUT to add, DELETE to remove, no body. */
    | { readonly mode: 'link'; itemPath(item: Item): string }
    /** One document holding the whole list (a realm's client profiles or policies): a change reads the list
     * again (listPath, `unwrap` turning the answer into items) and PUTs it back with only our items changed. */
    | {
        readonly mode: 'document';
        readonly path: string;
        /** The document to PUT: `items` over the rest of the document as just read (`answer`). */
        wrap(items: Item[], answer: unknown): unknown;
        unwrap(answer: unknown): Item[] | undefined;
      }
    /** Entries of one map (a locale's message texts, items `{key, value}`): one POST of `{key: value}` creates
     * and changes, DELETE removes one key. */
    | { readonly mode: 'map'; readonly path: string; itemPath(item: Item): string };
  /** The form compared (a set-valued field sorted); default: as is. */
  canonical?(item: Item): Item;
  /** Turns a desired item into what is sent (e.g. a role mapping needs the live role's id). Default: as is. */
  resolve?(admin: AdminClient, namespace: string, desired: Item): Promise<Item>;
  /** Drops what Keycloak writes into a live item by itself (a component's lastSync) before comparing. */
  normalize?(live: Item): Item;
  /** What a create (no `live`) or an update sends, for items read in one form and written in another
   * (authorization policies: read in Keycloak's export form, written typed). Default: the desired item, merged
   * over the live one for an update. */
  send?(desired: Item, live?: Item): Item;
};

/** What a collection sync did: the writes (for the log), the keys now managed (the next ledger), and the live
 * items as read before any write (sub-collections read their ledgers from them; `created` says whether to
 * re-read for the ids of new items). */
export type CollectionResult = {
  writes: string[];
  managed: string[];
  live: readonly Item[];
  created: boolean;
};

/** How a sync may save reads: the live items when the parent's answer carried them, and whether the spec
 * declared items of this collection last time (a marker-owned collection declared neither now nor then is not
 * read at all, so a steady resync costs no read for it). `adopt` takes over declared items that exist and are not
 * ours (only when the resource asked for adoption). `claim` records keys in a ledger before their items are
 * created (or adopted), so a crash in between never leaves an item of ours that looks like a person's. */
export type SyncOptions = {
  adopt?: boolean;
  live?: readonly Item[];
  declaredBefore?: boolean;
  claim?: (keys: string[]) => Promise<void>;
};

/**
 * Makes the collection equal to `desired` for the items the operator owns: observe, plan, apply.
 */
export async function syncCollection(
  admin: AdminClient,
  namespace: string,
  c: Collection,
  desired: readonly Item[],
  ownership: Ownership,
  options: SyncOptions = {},
): Promise<CollectionResult> {
  const nothingOurs = ownership.managed.size === 0 && (!ownership.legacy || !options.declaredBefore);
  if (!desired.length && nothingOurs) return { writes: [], managed: [], live: [], created: false };
  const live = options.live ?? (await admin.call<Item[]>(namespace, 'GET', c.listPath)).body ?? [];
  const plan = planCollection(c, desired, live, ownership, options);
  const writes = await applyPlan(admin, namespace, c, plan, options);
  const managed = [...new Set(desired.map((item) => c.key(item)))].sort();
  return { writes, managed, live, created: plan.create.length > 0 };
}

const first = (value: unknown) =>
  Array.isArray(value) ? String(value[0] ?? '') || undefined : (value as string | undefined);

/** An earlier version's owner entry in the map `map` of an item. */
const markIn =
  (map: 'attributes' | 'config') =>
  (owner: string): LegacyMark => ({
    owner,
    read: (item) => first((item[map] as Record<string, unknown> | undefined)?.[ownerAttribute]),
    strip: (item) => {
      const entries = item[map] as Record<string, unknown> | undefined;
      if (!entries || !(ownerAttribute in entries)) return item;
      const { [ownerAttribute]: _, ...rest } = entries;
      return { ...item, [map]: rest };
    },
  });

/** An earlier version's owner attribute on an item (`attributes['realmforge.dev/owner']`). */
export const attributeMark = markIn('attributes');

/** An earlier version's owner entry in an item's config (identity providers and their mappers). */
export const configMark = markIn('config');

/** The keys a parent recorded in its ledger attribute (comma-separated), for a ledger-owned collection. */
export function ledger(attributes: Record<string, unknown> | undefined, name: string): Ledger {
  return { managed: new Set(ledgerEntries(attributes, name)) };
}

/** The entries of a ledger attribute, as written. */
export function ledgerEntries(attributes: Record<string, unknown> | undefined, name: string): string[] {
  const raw = attributes?.[name];
  const text = Array.isArray(raw) ? String(raw[0] ?? '') : String(raw ?? '');
  return text.split(',').filter(Boolean);
}

/** A key as an entry of an encoded ledger: `%` and `,` escaped (a name may hold a comma), nothing else. */
export const ledgerEntry = (key: string) => key.replace(/%/g, '%25').replace(/,/g, '%2C');

/** The keys of a ledger whose entries are encoded (ledgerEntry), with an earlier version's marks. */
export function itemLedger(
  attributes: Record<string, unknown> | undefined,
  name: string,
  legacy?: LegacyMark,
): Ledger {
  const managed = new Set(ledgerEntries(attributes, name).map(decodeURIComponent));
  return { managed, ...(legacy ? { legacy } : {}) };
}

/** The parent attribute recording `keys` in an encoded ledger (none: no attribute). */
export function itemLedgerAttribute(name: string, keys: readonly string[]): Record<string, string> {
  const entries = [...new Set(keys.map(ledgerEntry))].sort();
  return entries.length ? { [name]: entries.join(',') } : {};
}
