// Keycloak's own sections of a new realm, as the server makes them: its built-in authentication flows and their
// configs, required actions, client scopes with their mappers and role scope mappings, the realm's default and
// optional scopes and the flow bindings. Keycloak's import of a realm that lists any of these keeps only what is
// listed, so a create call carrying a declared flow, action setting or scope (collections/realm-create-builtins.ts)
// lists Keycloak's own as well. They depend on the Keycloak version and its features, so they are read from the
// server itself: the master identity (which may create realms, and holds the roles of those it creates) makes an
// empty, disabled realm under a random name, reads its partial export and deletes it (a create answered otherwise
// than 201, a name taken, touches nothing); scratch realms over ten minutes old, left by an operator stopped
// mid-read, are deleted first. One read per server and Keycloak version, kept in memory (one entry per
// server). Without it (the read failed) a new realm's sections go through their steps.
import { randomBytes } from 'node:crypto';
import type { AdminClient } from './admin-client.ts';
import type { Item } from './collections/collection.ts';
import { realmBindings } from './collections/flow-replacement.ts';

/** A new realm's own sections, without ids (each realm made from it gets its own). */
export type RealmTemplate = {
  readonly authenticationFlows: readonly Item[];
  readonly authenticatorConfig: readonly Item[];
  readonly requiredActions: readonly Item[];
  readonly clientScopes: readonly Item[];
  /** The realm roles the scopes bring (offline_access's role): an import listing scopes makes none of them. */
  readonly scopeMappings: readonly Item[];
  readonly defaultDefaultClientScopes: readonly string[];
  readonly defaultOptionalClientScopes: readonly string[];
  /** The realm's flow bindings (browserFlow: 'browser', ...). */
  readonly bindings: Readonly<Record<string, string>>;
};

/** The scratch realm's name: the operator's prefix, when it was made (base 36 ms) and 8 random hex digits. */
export const scratchRealmPrefix = 'realmforge-template-';
const scratchName = /^realmforge-template-([0-9a-z]+)-[0-9a-f]{8}$/;
/** A scratch realm older than this is a read's leftover (the operator stopped between create and delete). */
const scratchStaleMs = 10 * 60_000;

/** Deletes the scratch realms a read left behind (best effort: a failure leaves them to the next read). */
async function sweepScratch(master: AdminClient, ns: string, now: number) {
  const listed = await master.call<{ realm?: string }[]>(ns, 'GET', '?briefRepresentation=true');
  for (const { realm = '' } of Array.isArray(listed.body) ? listed.body : []) {
    if (!realm.startsWith(scratchRealmPrefix)) continue;
    const made = Number.parseInt(scratchName.exec(realm)?.[1] ?? '0', 36);
    if (now - made > scratchStaleMs) await master.call(ns, 'DELETE', `/${realm}`);
  }
}

/** The realm fields that bind a flow by alias (first broker login too: identity providers fall back to it). */
const bindingFields = [...realmBindings, 'firstBrokerLoginFlow'];

const withoutIds = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(withoutIds)
    : v && typeof v === 'object'
      ? Object.fromEntries(
          Object.entries(v)
            .filter(([k]) => k !== 'id')
            .map(([k, x]) => [k, withoutIds(x)]),
        )
      : v;

/** The template from a fresh realm's partial export. */
export function templateOf(exported: Item): RealmTemplate {
  const list = (k: string) => withoutIds(exported[k] ?? []) as Item[];
  const names = (k: string) => ((exported[k] ?? []) as unknown[]).map(String);
  return {
    authenticationFlows: list('authenticationFlows'),
    authenticatorConfig: list('authenticatorConfig'),
    requiredActions: list('requiredActions'),
    clientScopes: list('clientScopes'),
    scopeMappings: list('scopeMappings').filter((m) => typeof m.clientScope === 'string'),
    defaultDefaultClientScopes: names('defaultDefaultClientScopes'),
    defaultOptionalClientScopes: names('defaultOptionalClientScopes'),
    bindings: Object.fromEntries(
      bindingFields.filter((f) => typeof exported[f] === 'string').map((f) => [f, String(exported[f])]),
    ),
  };
}

const cache = new Map<string, { version: string; template: Promise<RealmTemplate | undefined> }>();

/** Reads the template from a scratch realm the master identity makes and deletes; throws what Keycloak refused.
 * The delete is not waited for: it takes Keycloak seconds, and the first new realms wait for the template. */
async function readTemplate(
  master: AdminClient,
  ns: string,
  now: number,
  failed: (message: string) => void,
): Promise<RealmTemplate> {
  // Beside the read: nothing needs the leftovers gone first.
  void sweepScratch(master, ns, now).catch(() => {});
  const realm = `${scratchRealmPrefix}${now.toString(36)}-${randomBytes(4).toString('hex')}`;
  const created = await master.call(ns, 'POST', '', { realm, enabled: false });
  if (created.status >= 300) throw new Error(`creating realm ${realm}: HTTP ${created.status}`);
  try {
    const path = `/${realm}/partial-export?exportClients=false&exportGroupsAndRoles=false`;
    const exported = await master.call<Item>(ns, 'POST', path);
    if (exported.status !== 200 || !exported.body) throw new Error(`POST ${path}: HTTP ${exported.status}`);
    return templateOf(exported.body);
  } finally {
    master.call(ns, 'DELETE', `/${realm}`).catch((error: Error) => {
      failed(`cannot delete the disabled scratch realm ${realm} (${error.message}): delete it by hand`);
    });
  }
}

/** The template of the server behind `master` at Keycloak `version`: read once per server and version. A failed
 * read is told to `failed` and tried again by the next realm create. */
export async function realmTemplate(
  master: AdminClient,
  ns: string,
  version: string | undefined,
  failed: (message: string) => void = () => {},
  now = Date.now(),
): Promise<RealmTemplate | undefined> {
  const key = master.baseUrl;
  const hit = cache.get(key);
  if (hit && hit.version === (version ?? '')) return hit.template;
  const template = readTemplate(master, ns, now, failed).catch((error: Error) => {
    failed(
      `cannot read Keycloak's own flows, required actions and client scopes of a new realm at ${key} (${error.message}): new realms get theirs in calls after the create`,
    );
    return undefined;
  });
  cache.set(key, { version: version ?? '', template });
  const read = await template;
  if (!read && cache.get(key)?.template === template) cache.delete(key);
  return read;
}
