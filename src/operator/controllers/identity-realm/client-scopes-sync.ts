// A realm's client scopes, their protocol mappers and the realm's default and optional scope links, each through
// the one collection reconciler. The scope list is read once (it carries every scope's mappers) and again only
// after a create, for the new ids; links are read only when declared now or recorded in their ledger.
import type { IdentityRealm } from '../../../../generated/types/crds/identityrealm.ts';
import { scopeLinkLedgers } from '../../compile/realm/client-scopes.ts';
import type { AdminClient } from '../../keycloak/admin-client.ts';
import { clientScopeItem, clientScopes, realmScopeLinks } from '../../keycloak/collections/client-scopes.ts';
import {
  attributeMarker,
  type Item,
  ItemConflictError,
  ledger,
  ownerAttribute,
  syncCollection,
} from '../../keycloak/collections/collection.ts';
import { ledgerClaim } from '../../keycloak/collections/late-ledgers.ts';
import { mappersLedger, protocolMappers } from '../../keycloak/collections/protocol-mappers.ts';

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
  owner: string,
  liveRealm: Item,
  declaredBefore: boolean,
): Promise<string[]> {
  const writes: string[] = [];
  const declared = spec.clientScopes ?? [];
  const marker = attributeMarker(owner, false);
  // A scope's update records its mappers' names (write-ahead), so a mapper a person added under a declared name
  // is refused before that update, never recorded as ours.
  const listed = declared.length
    ? ((await admin.call<Item[]>(ns, 'GET', clientScopes(realm).listPath)).body ?? [])
    : undefined;
  if (!spec.adoptExisting) checkScopeMappers(declared, listed ?? [], marker.owner);
  const result = await syncCollection(admin, ns, clientScopes(realm), declared.map(clientScopeItem), marker, {
    declaredBefore,
    ...(listed ? { live: listed } : {}),
  });
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
        claim: ledgerClaim(admin, ns, `/${encodeURIComponent(realm)}`, scopeLinkLedgers[kind]),
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
  owner: string,
) {
  for (const scope of declared) {
    const have = live.find((s) => s.name === scope.name);
    const attrs = (have?.attributes ?? {}) as Record<string, unknown>;
    if (!have || attrs[ownerAttribute] !== owner) continue;
    const recorded = ledger(attrs, mappersLedger).managed;
    const mappers = (have.protocolMappers ?? []) as Item[];
    for (const m of scope.protocolMappers ?? [])
      if (!recorded.has(m.name) && mappers.some((x) => x.name === m.name))
        throw new ItemConflictError(
          `spec.clientScopes[${scope.name}].protocolMappers declares protocol mapper "${m.name}", which already exists and was not created by realmforge: rename it in the spec, delete it in Keycloak, or set spec.adoptExisting`,
        );
  }
}
