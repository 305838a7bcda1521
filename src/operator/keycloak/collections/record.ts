// The ownership record: one attribute on a realm or a client (`realmforge.dev/record`, compact JSON with a
// version) holding everything the operator keeps about the object: its owner and how it became ours (created,
// adopted, migrated from the attributes of an earlier version), the fields it set, the items of each section it
// made (by natural key) and what it recorded besides (secret hashes, settings from before the spec).
// The sections keep reading and writing their entries by name (`realmforge.dev/managed-flows`, ...): `openRecord`
// turns a live object's record into those entries when it is read, `sealRecord` folds a body's entries into the
// record when it is written. An object still carrying them as attributes of their own (an earlier version's) is
// read from them and gets its record, those attributes removed, in its next update. docs/ownership.md.
import { RealmforgeError } from '../../../core/errors.ts';

/** The attribute holding the record. */
export const recordAttribute = 'realmforge.dev/record';

const prefix = 'realmforge.dev/';
const owner = `${prefix}owner`;
const managedFieldsAttribute = `${prefix}managed-fields`;
/** Attributes of the operator that stay attributes: Keycloak's client policies match the grace, and the rotation
 * stamps are the rotation's state, not ownership. */
const outside = new Set(
  ['record', 'secret-rotation-grace', 'secret-rotated-at', 'secret-rotation-request'].map((k) => prefix + k),
);
/** The entries that list items by natural key (comma-separated as entries); every other entry is one value. */
const itemLists =
  /^(managed-(?!fields$)|ldap-(providers|mappers)$|authz-|client-(profiles|policies)$|user-profile-(attributes|groups)$)/;

export type OwnershipRecord = {
  readonly v: 1;
  /** `namespace/name` of the resource the object is ours for. */
  readonly owner?: string;
  readonly how: 'created' | 'adopted' | 'migrated';
  /** The fields the operator set (managed-fields.ts paths, `+section` for a section the spec declares). */
  readonly fields: readonly string[];
  /** Per section, the natural keys of the items the operator made or took over. */
  readonly items: Readonly<Record<string, readonly string[]>>;
  /** Values recorded besides: secret hashes, settings from before the spec. */
  readonly recorded: Readonly<Record<string, string>>;
};

type Attrs = Record<string, unknown>;

/** Whether `key` is an entry of the record (read and written through it), not an attribute of its own. */
export const inRecord = (key: string) => key.startsWith(prefix) && !outside.has(key);

const text = (v: unknown) => (Array.isArray(v) ? String(v[0] ?? '') : String(v ?? ''));

function parse(raw: string): OwnershipRecord | undefined {
  try {
    return JSON.parse(raw) as OwnershipRecord;
  } catch {
    return undefined;
  }
}

/** The record of an object as its attributes hold it: the record attribute, else (an earlier version's object)
 * built from its own attributes; undefined when neither says anything. */
export function readRecord(attributes: Attrs | undefined): OwnershipRecord | undefined {
  const raw = text(attributes?.[recordAttribute]);
  if (raw) {
    const parsed = parse(raw);
    if (parsed?.v !== 1)
      throw new RealmforgeError(
        'conflict',
        parsed
          ? `the attribute ${recordAttribute} is version ${parsed.v}, written by a newer operator: nothing is written; run that version again`
          : `the attribute ${recordAttribute} is not the JSON the operator wrote (edited by hand?): nothing is written; remove the attribute to have it rebuilt, adopting the object again`,
      );
    return parsed;
  }
  const entries = Object.entries(attributes ?? {}).filter(([k, v]) => inRecord(k) && text(v));
  return entries.length ? fromEntries(new Map(entries.map(([k, v]) => [k, text(v)])), 'migrated') : undefined;
}

function fromEntries(entries: Map<string, string>, how: OwnershipRecord['how']): OwnershipRecord {
  const items: Record<string, string[]> = {};
  const recorded: Record<string, string> = {};
  for (const [key, value] of [...entries].sort(([a], [b]) => a.localeCompare(b))) {
    const name = key.slice(prefix.length);
    if (key === owner || key === managedFieldsAttribute || !value) continue;
    if (itemLists.test(name)) items[name] = value.split(',').filter(Boolean);
    else recorded[name] = value;
  }
  return {
    v: 1,
    ...(entries.get(owner) ? { owner: entries.get(owner) } : {}),
    how,
    fields: (entries.get(managedFieldsAttribute) ?? '').split(',').filter(Boolean),
    items,
    recorded,
  };
}

/** The record as the entries the sections read (`realmforge.dev/<name>`, strings). */
export function recordEntries(record: OwnershipRecord): Record<string, string> {
  const out: Record<string, string> = {};
  if (record.owner) out[owner] = record.owner;
  for (const [name, keys] of Object.entries(record.items))
    if (keys.length) out[prefix + name] = keys.join(',');
  for (const [name, value] of Object.entries(record.recorded)) out[prefix + name] = value;
  if (record.fields.length) out[managedFieldsAttribute] = record.fields.join(',');
  return out;
}

/** `live` as the sections read it: its record's entries among its attributes (an earlier version's object: as
 * it is, its entries being attributes already). */
export function openRecord<T extends object>(live: T): T;
export function openRecord<T extends object>(live: T | undefined): T | undefined;
export function openRecord<T extends object>(live: T | undefined): T | undefined {
  const attributes = (live as { attributes?: Attrs } | undefined)?.attributes;
  if (!live || !text(attributes?.[recordAttribute])) return live;
  const record = readRecord(attributes) as OwnershipRecord;
  const own = Object.fromEntries(Object.entries(attributes ?? {}).filter(([k]) => !inRecord(k)));
  return { ...live, attributes: { ...own, ...recordEntries(record) } };
}

/** Whether `live` (as read, or opened) still carries its entries as attributes of their own (an earlier version's
 * object): its next update writes its record. */
export const needsRecord = (live: object | undefined) => {
  const attributes = ((live as { attributes?: Attrs } | undefined)?.attributes ?? {}) as Attrs;
  return !text(attributes[recordAttribute]) && Object.keys(attributes).some(inRecord);
};

/** The attributes of a new object as its create call sends them: its own attributes, and its entries (the desired
 * ledgers: every declared item is claimed by the create) folded into its record. Pure, so any create body (the
 * realm's one-call create) can carry it. */
export function recordForCreate(attributes: Attrs | undefined): Attrs {
  return ((sealRecord({ attributes: attributes ?? {} }) as { attributes: Attrs }).attributes ?? {}) as Attrs;
}

/**
 * `body` (an update or a create of the object) as it is sent: its entries folded into the record, over the record
 * of `live` (the object as read; none for a create), so an entry the body leaves out is kept and one sent empty is
 * dropped. The attributes of their own of an earlier version's `live` are sent empty: none is read again.
 */
export function sealRecord<T extends object>(body: T, live?: object): T {
  const sent = ((body as { attributes?: Attrs }).attributes ?? {}) as Attrs;
  if (!Object.keys(sent).some(inRecord)) return body;
  const before = ((openRecord(live) as { attributes?: Attrs } | undefined)?.attributes ?? {}) as Attrs;
  const entries = new Map<string, string>();
  for (const [k, v] of Object.entries(before)) if (inRecord(k)) entries.set(k, text(v));
  for (const [k, v] of Object.entries(sent)) if (inRecord(k)) entries.set(k, text(v));
  const previous = readRecord(before[recordAttribute] ? before : undefined);
  const how = previous?.how ?? (needsRecord(live) ? 'migrated' : live ? 'adopted' : 'created');
  const legacy = needsRecord(live)
    ? Object.fromEntries(
        Object.keys(before)
          .filter(inRecord)
          .map((k) => [k, '']),
      )
    : {};
  const own = Object.fromEntries(Object.entries(sent).filter(([k]) => !inRecord(k)));
  const record = JSON.stringify(fromEntries(entries, how));
  return {
    ...body,
    attributes: { ...legacy, ...own, [recordAttribute]: record },
  };
}
