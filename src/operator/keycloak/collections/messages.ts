// A realm's message overrides of one locale (Keycloak's "Realm overrides": /localization/{locale}) as a managed
// collection: a map of message key -> text, read as items `{key, value}`, written with one POST of the changed
// entries and removed key by key. Texts have nowhere to carry a marker: the realm records the keys it manages.
import type { Collection } from './collection.ts';

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
