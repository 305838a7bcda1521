// A realm's message overrides (spec.localization.messages), one collection per locale on the one reconciler,
// owned by a ledger in the realm's attributes: a key the spec stops naming is deleted, an override made by hand
// stays (one the spec names is a NameConflict unless spec.adoptExisting; a key is claimed before it is set). A steady resync reads each locale declared now or before, once.
import type { IdentityRealm } from '../../../../generated/types/crds/identityrealm.ts';
import type { AdminClient } from '../../keycloak/admin-client.ts';
import { type Item, ledger, syncCollection } from '../../keycloak/collections/collection.ts';
import { ledgerClaim } from '../../keycloak/collections/late-ledgers.ts';
import { localeMessages, messageKey, messagesLedger } from '../../keycloak/collections/messages.ts';

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
      { by: 'ledger', managed },
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
