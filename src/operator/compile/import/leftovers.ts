// What no section reads: realm attributes become spec.attributes (those that mirror a realm field, Keycloak's own
// and the operator's marks left out), users are counted, and every other section that differs from a new realm's
// is noted by path, item by item where Keycloak keys its items.
import {
  compact,
  type ImportContext,
  isObject,
  type Json,
  listAt,
  objectAt,
  pathOf,
  type RealmSpec,
  same,
} from './context.ts';
import { normalise } from './keycloak-defaults.ts';
import { userProfileComponent } from './user-profile.ts';

/** Realm attributes that mirror a field of the realm (Keycloak stores some fields as attributes too). */
const mirrors = (key: string, exp: Json) =>
  key in exp || key.startsWith('_browser_header.') || key === 'realmReusableOtpCode';

export function importAttributes(exp: Json, ctx: ImportContext): Partial<RealmSpec> {
  const defaults = objectAt(ctx.defaults.attributes);
  const attributes = Object.fromEntries(
    Object.entries(objectAt(exp.attributes)).filter(
      ([k, v]) => !mirrors(k, exp) && !same(v, defaults[k]) && typeof v === 'string',
    ),
  ) as Record<string, string>;
  return compact({ attributes });
}

/** Keys of the items of list sections, so a difference is reported per item. */
const itemKeys: Record<string, string> = { scopeMappings: 'clientScope' };

/** Notes every section in `exp` not in `claimed` that differs from the defaults. */
export function noteLeftovers(exp: Json, ctx: ImportContext, claimed: ReadonlySet<string>): void {
  for (const [key, value] of Object.entries(exp)) {
    if (claimed.has(key)) continue;
    if (key === 'users') {
      const people = listAt(value).filter((u) => !u.serviceAccountClientId);
      if (people.length)
        ctx.note(
          'users',
          "users are not managed by the CRDs (move them with Keycloak's own import, or federate them)",
          people.length,
        );
      continue;
    }
    if (key === 'components') {
      noteComponents(value, ctx);
      continue;
    }
    const here = normalise(value, ctx.realm);
    if (same(here, ctx.defaults[key] ?? (isObject(here) ? {} : Array.isArray(here) ? [] : undefined)))
      continue;
    if (Array.isArray(here) && itemKeys[key]) {
      const before = listAt(ctx.defaults[key]);
      for (const item of listAt(here)) {
        const id = String(item[itemKeys[key]]);
        if (!before.some((b) => same(b, item)))
          ctx.note(`${key}[${id}]`, 'a section the CRDs have no field for');
      }
      continue;
    }
    ctx.note(key, 'a section the CRDs have no field for', Array.isArray(value) ? value.length : 1);
  }
}

const userStorage = 'org.keycloak.storage.UserStorageProvider';

/** Components by provider type and name: Keycloak's own key providers are left out (their keys are generated). */
function noteComponents(value: unknown, ctx: ImportContext): void {
  const defaults = objectAt(ctx.defaults.components);
  for (const [type, items] of Object.entries(objectAt(value))) {
    if (type === userProfileComponent) continue;
    const keyOf = (c: Json) => (c.subType ? `${String(c.name)} (${String(c.subType)})` : String(c.name));
    const before = new Map(listAt(defaults[type]).map((c) => [keyOf(c), c]));
    for (const item of listAt(items)) {
      const name = keyOf(item);
      const known = before.get(name);
      if (known && (type === 'org.keycloak.keys.KeyProvider' || same(normalise(item, ctx.realm), known)))
        continue;
      ctx.note(
        `${pathOf('components', type)}[${name}]`,
        type === userStorage
          ? 'user federation is not imported yet: declare spec.userFederation by hand'
          : 'a component the CRDs have no field for',
      );
    }
  }
}
