// A realm's message overrides (spec.localization.messages), one collection per locale (Keycloak's "Realm
// overrides": /localization/{locale}): a map of message key -> text, read as items `{key, value}`, written with one
// POST of the changed entries and removed key by key. Texts have nowhere to carry a marker: the realm records the
// keys it manages in a ledger, so a key the spec stops naming is deleted and an override made by hand stays (one
// the spec names is a NameConflict unless spec.adoptExisting; a key is claimed before it is set). A steady resync
// reads each locale declared now or before, once.
import type { IdentityRealm } from '../../../../generated/types/crds/identityrealm.ts';
import type { AdminClient } from '../admin-client.ts';
import { type Collection, type Item, ledger, syncCollection } from './collection.ts';
import { ledgerClaim } from './late-ledgers.ts';

const enc = encodeURIComponent;

/** The realm attribute listing the overrides the operator manages (`<locale>/<key>`, each part encoded). */
export const messagesLedger = 'realmforge.dev/managed-messages';

/** The ledger key of an override. */
export const messageKey = (locale: string, key: string) => `${enc(locale)}/${enc(key)}`;

/** The overrides of `locale` in `realm`. */
export function localeMessages(realm: string, locale: string): Collection {
  const path = `/${enc(realm)}/localization/${enc(locale)}`;
  return {
    noun: `${locale} message`,
    field: `spec.localization.messages[${locale}]`,
    listPath: path,
    key: (m) => String(m.key),
    compared: { key: '', value: '' },
    write: { mode: 'map', path, itemPath: (m) => `${path}/${enc(String(m.key))}` },
  };
}

type Spec = IdentityRealm['spec'];

/** The realm attribute recording the overrides the spec declares (none: no attribute). */
export function messagesAttributes(spec: Spec): Record<string, string> {
  const keys = Object.entries(spec.localization?.messages ?? {})
    .flatMap(([locale, texts]) => Object.keys(texts).map((key) => messageKey(locale, key)))
    .sort();
  return keys.length ? { [messagesLedger]: keys.join(',') } : {};
}

/** Makes the overrides equal to the spec's; `live` is the realm as read before this sync (its ledger). */
export async function syncMessages(
  admin: AdminClient,
  ns: string,
  realm: string,
  spec: Spec,
  live: Item,
): Promise<string[]> {
  const owned = [...ledger(live.attributes as Record<string, unknown>, messagesLedger).managed].map((k) =>
    k.split('/').map(decodeURIComponent),
  );
  const declared = spec.localization?.messages ?? {};
  const locales = new Set([...Object.keys(declared), ...owned.map(([locale]) => locale ?? '')]);
  const writes: string[] = [];
  for (const locale of [...locales].sort()) {
    const collection = localeMessages(realm, locale);
    const texts = (await admin.call<Record<string, string>>(ns, 'GET', collection.listPath)).body ?? {};
    const managed = new Set(owned.filter(([l]) => l === locale).map(([, key]) => key ?? ''));
    const desired = Object.entries(declared[locale] ?? {}).map(([key, value]) => ({ key, value }));
    const result = await syncCollection(
      admin,
      ns,
      collection,
      desired,
      { managed },
      {
        live: Object.entries(texts).map(([key, value]) => ({ key, value })),
        adopt: spec.adoptExisting,
        claim: ledgerClaim(admin, ns, `/${encodeURIComponent(realm)}`, messagesLedger, (key) =>
          messageKey(locale, key),
        ),
      },
    );
    writes.push(...result.writes);
  }
  return writes;
}
