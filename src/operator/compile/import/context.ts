// What every section of the importer shares: the export read as plain JSON, Keycloak's default realm to leave out
// what equals it, and the list of what the CRDs cannot say (reported by JSON path, never dropped in silence).
import type { IdentityRealm } from '../../../../generated/types/crds/identityrealm.ts';

export type Json = Record<string, unknown>;
export type RealmSpec = IdentityRealm['spec'];

/** Something in the export no field of the CRDs expresses: where it is, how many items, and why. */
export type Unexpressed = { readonly path: string; readonly count: number; readonly why: string };

/** A Secret the imported resources refer to: the value only when the export carries one (never Keycloak's mask). */
export type SecretRef = {
  readonly name: string;
  readonly key: string;
  /** The realm's namespace, or the clients' (a client's Secret references resolve in its own). */
  readonly namespace: string;
  readonly value?: string;
};

export type ImportContext = {
  /** The realm's name in Keycloak. */
  readonly realm: string;
  /** Keycloak's major version the export came from (its keycloakVersion; 26 when unknown). */
  readonly major: number;
  /** Keycloak's default realm of that version, normalised (normalise()). */
  readonly defaults: Json;
  /** Records what cannot be expressed. */
  note(path: string, why: string, count?: number): void;
  /** Records a Secret the output refers to (of the realm, or of a client) and returns the reference. */
  secret(name: string, key: string, value: unknown, of?: 'realm' | 'client'): { name: string; key: string };
};

export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
export const objectAt = (v: unknown): Json => (isObject(v) ? v : {});
export const listAt = (v: unknown): Json[] => (Array.isArray(v) ? v.filter(isObject) : []);
export const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);

/** Drops undefined values and empty objects or lists, so the YAML is as short as a person writes it. */
export function compact<T extends Json>(fields: T): T {
  return Object.fromEntries(
    Object.entries(fields).filter(
      ([, v]) =>
        v !== undefined &&
        !(Array.isArray(v) && v.length === 0) &&
        !(isObject(v) && Object.keys(v).length === 0),
    ),
  ) as T;
}

/** Whether two JSON values are equal, lists of scalars compared as sets (Keycloak keeps its own order). */
export function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

function canonical(v: unknown): unknown {
  // Keycloak's lists keep no meaningful order (flow executions carry their priority): compared as sets.
  if (Array.isArray(v)) {
    const items = v.map(canonical);
    return items.every((i) => typeof i !== 'object' || i === null)
      ? [...items].map(String).sort()
      : items.map((i) => JSON.stringify(i)).sort();
  }
  if (isObject(v))
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, canonical(v[k])]),
    );
  return v;
}

/** The JSON path of a field under `base` (`clients[web].attributes["a.b"]`). */
export const pathOf = (base: string, key: string) =>
  /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? `${base}.${key}` : `${base}[${JSON.stringify(key)}]`;

/** Notes every field of `item` not in `used` whose value differs from `defaults` (a field absent there counts as
 * different unless it is empty). */
export function noteRest(
  ctx: ImportContext,
  base: string,
  item: Json,
  used: readonly string[],
  defaults: Json,
  why: string,
): void {
  for (const [key, value] of Object.entries(item)) {
    if (used.includes(key) || ignoredKeys.has(key)) continue;
    if (key in defaults ? same(value, defaults[key]) : isEmpty(value)) continue;
    ctx.note(pathOf(base, key), why);
  }
}

/** Keys that name an object rather than say something about it: ids Keycloak makes up. */
export const ignoredKeys = new Set(['id', 'containerId', 'parentId', 'flowId', 'internalId']);

export const isEmpty = (v: unknown) =>
  v === undefined ||
  v === null ||
  v === '' ||
  (Array.isArray(v) && v.length === 0) ||
  (isObject(v) && Object.keys(v).length === 0);
