// The one reconciler for every Keycloak collection (realm roles, groups, client roles, protocol mappers, role
// mappings, and the sections that come later: identity providers, components, flows, ...). A collection is
// declared once: where its items live, their natural key, the fields compared, and how ownership is known. The
// reconciler reads the live items once, creates what is missing, updates what differs, deletes what the operator
// created and the spec no longer declares, and never touches an item it did not create.
//
// Ownership is known one of two ways:
//  - marker: the item itself carries the owner (an attribute `realmforge.dev/owner`, for items that have one);
//  - ledger: the parent records the keys it manages (a parent attribute), for items with nowhere to put a marker.
//    A key is recorded (claimed) before its item is created, and dropped once the item is deleted.
// One rule for both: a declared item that exists and is not ours (another owner's marker, or a key the ledger
// does not record) is a NameConflict unless the resource asked for adoption; items Keycloak makes itself (a
// ledger's `keycloak` keys: the built-in user-profile attributes, a new realm's scope links) are not a person's.
// A lost answer to a create (OutcomeUnknownError) is simply rethrown: the next reconcile lists first, so it finds
// the item if it was created and never sends the create twice blindly.
import { RealmforgeError } from '../../../core/errors.ts';
import { canonicalJson } from '../../runtime/desired-state.ts';
import type { AdminClient } from '../admin-client.ts';

/** The attribute that marks an item (or a realm, or a client) as created by one resource (`namespace/name`). */
export const ownerAttribute = 'realmforge.dev/owner';

/** An item as Keycloak represents it: any JSON object. */
export type Item = Record<string, unknown>;

/** Ownership by a marker the item carries. */
export type Marker = {
  readonly by: 'marker';
  readonly owner: string;
  read(item: Item): string | undefined;
  mark(item: Item): Item;
};
/** Ownership by the keys the parent recorded; `keycloak`: keys of items Keycloak makes itself. */
export type Ledger = {
  readonly by: 'ledger';
  readonly managed: ReadonlySet<string>;
  readonly keycloak?: ReadonlySet<string>;
};
/** How ownership of live items is known. */
export type Ownership = Marker | Ledger;

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

/** Thrown when a declared item exists but belongs to someone else; names the item, the field and the way out. */
export class ItemConflictError extends RealmforgeError {
  readonly reason = 'NameConflict';
  constructor(message: string) {
    super('conflict', message);
  }
}

/** An attribute holding an empty string is no attribute: Keycloak keeps string attributes an update empties
 * (client scopes) and does not remove what an update leaves out. Other maps (mapper config) are replaced whole. */
const withoutEmpty = (field: string, value: unknown) =>
  field === 'attributes' && value && typeof value === 'object' && !Array.isArray(value)
    ? Object.fromEntries(Object.entries(value).filter(([, v]) => v !== ''))
    : value;

function comparedPart(c: Collection, raw: Item): Item {
  const item = c.canonical?.(raw) ?? raw;
  return Object.fromEntries(
    Object.entries(c.compared).map(([f, empty]) => [f, withoutEmpty(f, item[f] ?? empty)]),
  );
}

/** String attributes of the live item the update leaves out, sent empty (an update adds and changes only). */
function emptied(c: Collection, body: Item, live: Item): Item {
  const out: Item = {};
  for (const field of Object.keys(c.compared).filter((f) => f === 'attributes')) {
    const [want, have] = [body[field], live[field]];
    if (!want || typeof want !== 'object' || Array.isArray(want) || !have || typeof have !== 'object')
      continue;
    const gone = Object.entries(have).filter(([k, v]) => typeof v === 'string' && v !== '' && !(k in want));
    if (gone.length) out[field] = { ...Object.fromEntries(gone.map(([k]) => [k, ''])), ...want };
  }
  return out;
}

/** Whether `live` equals `desired` on the compared fields (maps by key, not by order). */
export function sameItem(c: Collection, desired: Item, live: Item): boolean {
  const seen = c.normalize ? c.normalize(live) : live;
  return canonicalJson(comparedPart(c, desired)) === canonicalJson(comparedPart(c, seen));
}

function owned(ownership: Ownership, live: Item, key: string, declared: boolean): boolean {
  if (ownership.by === 'marker') return ownership.read(live) === ownership.owner;
  // A ledger item: ours when recorded; Keycloak's own may be declared (and is never deleted unless recorded).
  return ownership.managed.has(key) || (declared && (ownership.keycloak?.has(key) ?? false));
}

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
 * Makes the collection equal to `desired` for the items the operator owns.
 */
export async function syncCollection(
  admin: AdminClient,
  namespace: string,
  c: Collection,
  desired: readonly Item[],
  ownership: Ownership,
  options: SyncOptions = {},
): Promise<CollectionResult> {
  const writes: string[] = [];
  const nothingOurs = ownership.by === 'ledger' ? ownership.managed.size === 0 : !options.declaredBefore;
  if (!desired.length && nothingOurs) return { writes, managed: [], live: [], created: false };
  const live = options.live ?? (await admin.call<Item[]>(namespace, 'GET', c.listPath)).body ?? [];
  const liveByKey = new Map(live.map((item) => [c.key(item), item]));
  const wanted = new Map(desired.map((item) => [c.key(item), item]));
  const marked = (item: Item) => (ownership.by === 'marker' ? ownership.mark(item) : item);
  const toCreate: Item[] = [];
  const toDelete: Item[] = [];
  const updated = new Map<string, Item>();
  const toChange: Item[] = [];
  for (const [key, want] of wanted) {
    const have = liveByKey.get(key);
    if (!have) {
      toCreate.push(marked(want));
      continue;
    }
    if (!owned(ownership, have, key, true) && !options.adopt) {
      const by = ownership.by === 'marker' ? ownership.read(have) : undefined;
      throw new ItemConflictError(
        `${c.field} declares ${c.noun} "${key}", which already exists ${by ? `and belongs to ${by}` : 'and was not created by realmforge'}: rename it in the spec, or delete it in Keycloak`,
      );
    }
    const target = marked(want);
    if (c.write.mode === 'document' && !sameItem(c, target, have)) updated.set(key, target);
    if (c.write.mode === 'map' && !sameItem(c, target, have)) toChange.push(target);
    if (c.write.mode === 'each' && !sameItem(c, target, have)) {
      const body = await (c.resolve?.(admin, namespace, target) ?? target);
      await admin.call(
        namespace,
        'PUT',
        c.write.itemPath(have),
        c.send
          ? c.send(body, have)
          : { ...have, ...comparedPart(c, body), ...body, ...emptied(c, body, have) },
      );
      writes.push(`update ${c.noun} ${key}`);
    }
  }
  for (const [key, have] of liveByKey) {
    if (!wanted.has(key) && owned(ownership, have, key, false)) toDelete.push(have);
  }
  // A whole document is read again right before it is written (below); a declared item someone made since the
  // first read is a conflict before anything is claimed or written.
  const document =
    c.write.mode === 'document' && (toCreate.length || toDelete.length || updated.size)
      ? await reread(admin, namespace, c, toCreate)
      : undefined;
  if (ownership.by === 'ledger' && options.claim) {
    const unrecorded = [...wanted.keys()].filter((k) => !ownership.managed.has(k));
    if (unrecorded.length) await options.claim(unrecorded);
  }
  if (c.write.mode === 'each') {
    const { createPath } = c.write;
    for (const want of toCreate) {
      const body = await (c.resolve?.(admin, namespace, want) ?? want);
      const path = typeof createPath === 'string' ? createPath : createPath(want);
      await admin.call(namespace, 'POST', path, c.send ? c.send(body) : body);
      writes.push(`create ${c.noun} ${c.key(want)}`);
    }
    for (const have of toDelete) {
      await admin.call(namespace, 'DELETE', c.write.itemPath(have));
      writes.push(`delete ${c.noun} ${c.key(have)}`);
    }
  } else if (c.write.mode === 'document') {
    if (document) {
      const gone = new Set(toDelete.map((i) => c.key(i)));
      const kept = document.items.filter((i) => !gone.has(c.key(i))).map((i) => updated.get(c.key(i)) ?? i);
      await admin.call(namespace, 'PUT', c.write.path, c.write.wrap([...kept, ...toCreate], document.answer));
      writes.push(
        ...toCreate.map((i) => `create ${c.noun} ${c.key(i)}`),
        ...[...updated.keys()].map((k) => `update ${c.noun} ${k}`),
        ...toDelete.map((i) => `delete ${c.noun} ${c.key(i)}`),
      );
    }
  } else if (c.write.mode === 'map') {
    const upserts = [...toCreate, ...toChange];
    if (upserts.length) {
      const entries = upserts.map((i) => [c.key(i), i.value]);
      await admin.call(namespace, 'POST', c.write.path, Object.fromEntries(entries));
      writes.push(`set ${c.noun} ${upserts.map((i) => c.key(i)).join(',')}`);
    }
    for (const have of toDelete) {
      await admin.call(namespace, 'DELETE', c.write.itemPath(have));
      writes.push(`delete ${c.noun} ${c.key(have)}`);
    }
  } else if (c.write.mode === 'link') {
    for (const want of toCreate) {
      const target = await (c.resolve?.(admin, namespace, want) ?? want);
      created(c, c.key(want), await admin.call(namespace, 'PUT', c.write.itemPath(target)));
      writes.push(`add ${c.noun} ${c.key(want)}`);
    }
    for (const have of toDelete) {
      await admin.call(namespace, 'DELETE', c.write.itemPath(have));
      writes.push(`remove ${c.noun} ${c.key(have)}`);
    }
  } else {
    if (toCreate.length) {
      const bodies = [];
      for (const want of toCreate) bodies.push(await (c.resolve?.(admin, namespace, want) ?? want));
      created(
        c,
        toCreate.map((i) => c.key(i)).join(','),
        await admin.call(namespace, 'POST', c.write.path, bodies),
      );
      writes.push(`add ${c.noun} ${toCreate.map((i) => c.key(i)).join(',')}`);
    }
    if (toDelete.length) {
      // Keycloak removes a mapping by the role's id and name: a live item read as a name alone is resolved.
      const bodies = [];
      for (const have of toDelete)
        bodies.push(have.id || !c.resolve ? have : await c.resolve(admin, namespace, have));
      await admin.call(namespace, 'DELETE', c.write.path, bodies);
      writes.push(`remove ${c.noun} ${toDelete.map((i) => c.key(i)).join(',')}`);
    }
  }
  return { writes, managed: [...wanted.keys()].sort(), live, created: toCreate.length > 0 };
}

/** A document collection's items as Keycloak has them now. Keycloak keeps no version of the document, so it is read
 * again right before the write and only our items are changed: a person's edit since the first read is kept
 * (what is left: an edit in the milliseconds between this read and the write). */
async function reread(admin: AdminClient, namespace: string, c: Collection, creating: readonly Item[]) {
  if (c.write.mode !== 'document') throw new Error(`${c.noun} is not one document`);
  const answer = (await admin.call(namespace, 'GET', c.listPath)).body;
  const items = c.write.unwrap(answer) ?? [];
  const keys = new Set(creating.map((i) => c.key(i)));
  const taken = items.find((i) => keys.has(c.key(i)));
  if (taken)
    throw new ItemConflictError(
      `${c.field} declares ${c.noun} "${c.key(taken)}", which someone created in Keycloak just now: rename it in the spec, or delete it in Keycloak`,
    );
  return { answer, items };
}

/** A create answered 409 was made by someone else at the same moment: retried, it becomes a conflict or an update. */
function created(c: Collection, key: string, res: { status: number }): void {
  if (res.status === 409)
    throw new RealmforgeError(
      'conflict',
      `${c.noun} ${key} was created by someone else at the same time; retrying`,
    );
  if (res.status === 404)
    throw new RealmforgeError('validation', `${c.field}: Keycloak answered 404 creating ${c.noun} ${key}`);
}

/** Ownership by an owner attribute on the item (`attributes['realmforge.dev/owner']`): a list for roles and
 * groups, a plain string where Keycloak keeps attributes as strings (`listValues` false: client scopes). */
export function attributeMarker(owner: string, listValues = true): Marker {
  return {
    by: 'marker',
    owner,
    read: (item) => {
      const value = (item.attributes as Record<string, unknown> | undefined)?.[ownerAttribute];
      return Array.isArray(value) ? String(value[0] ?? '') || undefined : (value as string | undefined);
    },
    mark: (item) => ({
      ...item,
      attributes: {
        ...(item.attributes as object | undefined),
        [ownerAttribute]: listValues ? [owner] : owner,
      },
    }),
  };
}

/** The keys a parent recorded in its ledger attribute (comma-separated), for a ledger-owned collection. */
export function ledger(attributes: Record<string, unknown> | undefined, name: string): Ledger {
  const raw = attributes?.[name];
  const text = Array.isArray(raw) ? String(raw[0] ?? '') : String(raw ?? '');
  return { by: 'ledger', managed: new Set(text.split(',').filter(Boolean)) };
}
