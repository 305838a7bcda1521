// Realm-level client scopes as a managed collection, their protocol mappers as a sub-collection (ledger on the
// scope), and the realm's default and optional client scopes as two linked sets (ledgers on the realm). The realm's
// record lists the scopes the operator made (section-ownership.ts); Keycloak's built-in scopes (profile, email, roles, ...) and hand-made ones are never changed, but may be named as realm
// defaults. Links are added with PUT and removed with DELETE on the scope's id, so a link is resolved to the live
// scope first; a name that is no scope is an error naming the field. The scope list is read once (it carries every
// scope's mappers) and again only after a create, for the new ids; links are read only when declared now or
// recorded in their ledger.
import type { IdentityRealm } from '../../../../generated/types/crds/identityrealm.ts';
import { RealmforgeError } from '../../../core/errors.ts';
import { scopeLinkLedgers } from '../../compile/realm/client-scopes.ts';
import type { AdminClient } from '../admin-client.ts';
import {
  type Collection,
  type Item,
  ItemConflictError,
  type Ledger,
  ledger,
  syncCollection,
} from './collection.ts';
import { ledgerClaim } from './late-ledgers.ts';
import { mappersLedger, protocolMappers } from './protocol-mappers.ts';
import { type SectionOwner, sectionLedgers, sectionOwnership } from './section-ownership.ts';

const enc = encodeURIComponent;

/** A declared scope as Keycloak represents it (its mapper ledger included; mappers are synced separately). */
export function clientScopeItem(scope: {
  name: string;
  description?: string;
  protocol?: string;
  attributes?: Record<string, string>;
  protocolMappers?: { name: string }[];
}): Item {
  const mappers = (scope.protocolMappers ?? []).map((m) => m.name).sort();
  return {
    name: scope.name,
    protocol: scope.protocol ?? 'openid-connect',
    ...(scope.description ? { description: scope.description } : {}),
    attributes: { ...scope.attributes, ...(mappers.length ? { [mappersLedger]: mappers.join(',') } : {}) },
  };
}

/** The client scopes of `realm` (the list answer carries each scope's protocol mappers). */
export function clientScopes(realm: string): Collection {
  const base = `/${enc(realm)}/client-scopes`;
  return {
    noun: 'client scope',
    field: 'spec.clientScopes',
    listPath: base,
    key: (s) => String(s.name),
    compared: { name: '', description: '', protocol: 'openid-connect', attributes: {} },
    write: { mode: 'each', createPath: base, itemPath: (live) => `${base}/${enc(String(live.id))}` },
  };
}

/** The realm's default (or optional) client scopes, linked by id; keys are scope names. */
export function realmScopeLinks(
  realm: string,
  kind: 'default' | 'optional',
  scopes: readonly Item[],
): Collection {
  const base = `/${enc(realm)}/default-${kind}-client-scopes`;
  const field = `spec.realmDefaultClientScopes.${kind}`;
  return {
    noun: `realm ${kind} client scope`,
    field,
    listPath: base,
    key: (s) => String(s.name),
    compared: { name: '' },
    write: { mode: 'link', itemPath: (item) => `${base}/${enc(String(item.id))}` },
    resolve: async (_admin: AdminClient, _ns: string, desired: Item) => {
      const scope = scopes.find((s) => s.name === desired.name);
      if (!scope)
        throw new RealmforgeError(
          'validation',
          `${field} names client scope "${String(desired.name)}", which does not exist in the realm: declare it in spec.clientScopes or fix the name`,
        );
      return { id: scope.id, name: scope.name };
    },
  };
}

type Spec = IdentityRealm['spec'];

/** The links a new realm has from Keycloak (its built-in scopes, on Keycloak 25 and 26): declaring them is not
 * taking a person's link. */
const keycloakScopeLinks = {
  default: new Set(['acr', 'basic', 'email', 'profile', 'role_list', 'roles', 'web-origins']),
  optional: new Set(['address', 'microprofile-jwt', 'offline_access', 'organization', 'phone']),
};

/** Makes the scopes, their mappers and the realm's scope links equal to the spec; returns the writes. */
export async function syncClientScopes(
  admin: AdminClient,
  ns: string,
  realm: string,
  spec: Spec,
  owner: SectionOwner,
  liveRealm: Item,
  declaredBefore: boolean,
): Promise<string[]> {
  const writes: string[] = [];
  const declared = spec.clientScopes ?? [];
  const section = sectionOwnership(admin, ns, owner, sectionLedgers.clientScopes);
  // A scope's update records its mappers' names (write-ahead), so a mapper a person added under a declared name
  // is refused before that update, never recorded as ours.
  const listed = declared.length
    ? ((await admin.call<Item[]>(ns, 'GET', clientScopes(realm).listPath)).body ?? [])
    : undefined;
  if (!spec.adoptExisting) checkScopeMappers(declared, listed ?? [], section.ownership);
  const result = await syncCollection(
    admin,
    ns,
    clientScopes(realm),
    declared.map(clientScopeItem),
    section.ownership,
    { ...section.options, declaredBefore, ...(listed ? { live: listed } : {}) },
  );
  writes.push(...result.writes);
  let scopes = result.live;
  const links = spec.realmDefaultClientScopes ?? {};
  const realmAttributes = liveRealm.attributes as Record<string, unknown> | undefined;
  const linkLedgers = (['default', 'optional'] as const).map((kind) =>
    ledger(realmAttributes, scopeLinkLedgers[kind]),
  );
  const linksNeeded =
    linkLedgers.some((l) => l.managed.size) || Boolean(links.default?.length || links.optional?.length);
  if (result.created || (linksNeeded && !scopes.length))
    scopes = (await admin.call<Item[]>(ns, 'GET', clientScopes(realm).listPath)).body ?? [];
  for (const scope of declared) {
    const live = scopes.find((s) => s.name === scope.name);
    if (!live?.id) continue;
    const mappers = (scope.protocolMappers ?? []).map((m) => ({
      name: m.name,
      protocol: m.protocol ?? 'openid-connect',
      protocolMapper: m.protocolMapper,
      config: m.config ?? {},
    }));
    const field = `spec.clientScopes[${scope.name}].protocolMappers`;
    const mapperResult = await syncCollection(
      admin,
      ns,
      protocolMappers(realm, String(live.id), 'client-scopes', field),
      mappers,
      ledger(live.attributes as Record<string, unknown>, mappersLedger),
      { live: (live.protocolMappers as Item[] | undefined) ?? [], adopt: spec.adoptExisting },
    );
    writes.push(...mapperResult.writes);
  }
  for (const [i, kind] of (['default', 'optional'] as const).entries()) {
    const linkResult = await syncCollection(
      admin,
      ns,
      realmScopeLinks(realm, kind, scopes),
      (links[kind] ?? []).map((name) => ({ name })),
      { ...(linkLedgers[i] ?? ledger(undefined, '')), keycloak: keycloakScopeLinks[kind] },
      {
        adopt: spec.adoptExisting,
        claim: ledgerClaim(admin, ns, `/${enc(realm)}`, scopeLinkLedgers[kind]),
      },
    );
    writes.push(...linkResult.writes);
  }
  return writes;
}

/** Refuses a declared mapper that a person added to one of our scopes (present, not in the scope's ledger). */
function checkScopeMappers(
  declared: NonNullable<Spec['clientScopes']>,
  live: readonly Item[],
  scopes: Ledger,
) {
  for (const scope of declared) {
    const have = live.find((s) => s.name === scope.name);
    const attrs = (have?.attributes ?? {}) as Record<string, unknown>;
    const ours =
      scopes.managed.has(scope.name) || (have && scopes.legacy?.read(have) === scopes.legacy?.owner);
    if (!have || !ours) continue;
    const recorded = ledger(attrs, mappersLedger).managed;
    const mappers = (have.protocolMappers ?? []) as Item[];
    for (const m of scope.protocolMappers ?? [])
      if (!recorded.has(m.name) && mappers.some((x) => x.name === m.name))
        throw new ItemConflictError(
          `spec.clientScopes[${scope.name}].protocolMappers declares protocol mapper "${m.name}", which already exists and was not created by realmforge: rename it in the spec, delete it in Keycloak, or set spec.adoptExisting`,
        );
  }
}
