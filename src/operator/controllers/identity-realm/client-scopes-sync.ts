// A realm's client scopes, their protocol mappers and the realm's default and optional scope links, each through
// the one collection reconciler. The scope list is read once (it carries every scope's mappers) and again only
// after a create, for the new ids; links are read only when declared now or recorded in their ledger.
import type { IdentityRealm } from '../../../../generated/types/crds/identityrealm.ts';
import { scopeLinkLedgers } from '../../compile/realm/client-scopes.ts';
import type { AdminClient } from '../../keycloak/admin-client.ts';
import { clientScopeItem, clientScopes, realmScopeLinks } from '../../keycloak/collections/client-scopes.ts';
import { attributeMarker, type Item, ledger, syncCollection } from '../../keycloak/collections/collection.ts';
import { realmClaim } from '../../keycloak/collections/late-ledgers.ts';
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
  const result = await syncCollection(admin, ns, clientScopes(realm), declared.map(clientScopeItem), marker, {
    declaredBefore,
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
        claim: realmClaim(admin, ns, `/${encodeURIComponent(realm)}`, scopeLinkLedgers[kind]),
      },
    );
    writes.push(...linkResult.writes);
  }
  return writes;
}
