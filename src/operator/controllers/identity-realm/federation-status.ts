// What Keycloak itself says of a realm's federation, for status: for each LDAP provider the operator manages,
// Keycloak's own connection and authentication test (with the bind password from the Secret); for each identity
// provider with a discovery or metadata URL, whether Keycloak could read it (its import-config endpoint, which
// fetches and parses the document). A sync requested by the annotation realmforge.dev/federation-sync
// (`full` or `changed`, with any suffix to request again: `full@2026-05-01T10:00`) runs once per value; its
// counts or error are kept on status until the next request.
//
// The test and the discovery read are POSTs that change nothing but cost Keycloak (and the directory) work, so
// they do not run on every resync: a provider is checked when it was created or written in this reconcile (a
// changed spec or a rotated Secret), when its last check failed (so recovery shows within one drift interval),
// when a sync is requested, and otherwise once per check interval (status.federation.*.checkedAt). A steady
// resync therefore sends only the collection reads.
import type {
  FederationStatus,
  IdentityRealm,
  LdapSyncResult,
} from '../../../../generated/types/crds/identityrealm.ts';
import type { AdminClient } from '../../keycloak/admin-client.ts';
import type { FederationSecrets } from '../../keycloak/collections/federation.ts';
import { discoveryError, runLdapSync, testLdap } from '../../keycloak/collections/federation-checks.ts';

/** The annotation that requests a synchronisation of every LDAP provider of the realm. */
export const federationSyncAnnotation = 'realmforge.dev/federation-sync';

/** The sync the annotation asks for, or undefined (absent, or not `full`/`changed`). */
export function requestedSync(
  realm: IdentityRealm,
): { request: string; mode: 'full' | 'changed' } | undefined {
  const request = realm.metadata.annotations?.[federationSyncAnnotation];
  const mode = request?.split('@')[0];
  return request && (mode === 'full' || mode === 'changed') ? { request, mode } : undefined;
}

/** When the checks run: the providers written in this reconcile (`ldap/<name>`, `idp/<alias>`), the time, and
 * the interval after which a provider that passed is checked again. */
export type CheckSchedule = { written: ReadonlySet<string>; now: number; intervalMs: number };

type Checked = { checkedAt?: string; connected?: boolean; reachable?: boolean };
/** Whether a provider must be checked now; otherwise its last check stands. */
function due(prev: Checked | undefined, key: string, when: CheckSchedule, ok: boolean | undefined) {
  if (!prev?.checkedAt || !ok || when.written.has(key)) return true;
  return when.now - Date.parse(prev.checkedAt) >= when.intervalMs;
}

/** Tests each managed LDAP provider, runs a requested sync, and reads each identity provider's discovery URL, each
 * when due (see CheckSchedule). */
export async function federationStatus(
  admin: AdminClient,
  realm: IdentityRealm,
  ldapIds: ReadonlyMap<string, string>,
  secrets: FederationSecrets,
  when: CheckSchedule,
): Promise<FederationStatus | undefined> {
  const ns = realm.metadata.namespace ?? 'default';
  const realmName = realm.spec.realmName ?? realm.metadata.name;
  const previous = (realm as { status?: { federation?: FederationStatus } }).status?.federation;
  const sync = requestedSync(realm);
  const checkedAt = new Date(when.now).toISOString();
  const ldap: NonNullable<FederationStatus['ldap']> = [];
  for (const p of realm.spec.userFederation?.ldap ?? []) {
    const id = ldapIds.get(p.name);
    if (!id) continue;
    const prev = previous?.ldap?.find((s) => s.name === p.name);
    let lastSync: LdapSyncResult | undefined = prev?.lastSync;
    const syncDue = sync !== undefined && lastSync?.request !== sync.request;
    if (prev && !syncDue && !due(prev, `ldap/${p.name}`, when, prev.connected)) {
      ldap.push(prev);
      continue;
    }
    const error = await testLdap(admin, ns, realmName, id, {
      connectionUrl: p.connectionUrl,
      authType: p.bindDn ? 'simple' : 'none',
      bindDn: p.bindDn ?? '',
      bindCredential: secrets.ldap.get(p.name) ?? '',
      useTruststoreSpi: p.useTruststoreSpi ?? 'always',
      startTls: String(p.startTls ?? false),
      ...(p.connectionTimeoutMs ? { connectionTimeout: String(p.connectionTimeoutMs) } : {}),
    });
    if (sync && syncDue && !error)
      lastSync = {
        request: sync.request,
        mode: sync.mode,
        ...(await runLdapSync(admin, ns, realmName, id, sync.mode)),
      };
    ldap.push({
      name: p.name,
      connected: !error,
      ...(error ? { error } : {}),
      checkedAt,
      ...(lastSync ? { lastSync } : {}),
    });
  }
  const identityProviders: NonNullable<FederationStatus['identityProviders']> = [];
  for (const idp of realm.spec.identityProviders ?? []) {
    const config = idp.config ?? {};
    const fromUrl =
      idp.providerId === 'saml'
        ? config.metadataDescriptorUrl
        : config.issuer && ['oidc', 'keycloak-oidc'].includes(idp.providerId)
          ? `${config.issuer.replace(/\/$/, '')}/.well-known/openid-configuration`
          : undefined;
    if (!fromUrl) continue;
    const prev = previous?.identityProviders?.find((s) => s.alias === idp.alias);
    if (prev && !due(prev, `idp/${idp.alias}`, when, prev.reachable)) {
      identityProviders.push(prev);
      continue;
    }
    const error = await discoveryError(admin, ns, realmName, idp.providerId, fromUrl);
    identityProviders.push(
      error === undefined
        ? { alias: idp.alias, reachable: true, checkedAt }
        : { alias: idp.alias, reachable: false, error, checkedAt },
    );
  }
  if (!ldap.length && !identityProviders.length) return undefined;
  return { ...(ldap.length ? { ldap } : {}), ...(identityProviders.length ? { identityProviders } : {}) };
}

/** The message of a realm whose federation is broken (FederationUnavailable), or undefined when none is. */
export function federationProblem(status: FederationStatus | undefined): string | undefined {
  const broken = [
    ...(status?.ldap ?? []).filter((l) => !l.connected).map((l) => `LDAP provider ${l.name}: ${l.error}`),
    ...(status?.identityProviders ?? [])
      .filter((i) => !i.reachable)
      .map((i) => `identity provider ${i.alias}: ${i.error}`),
  ];
  return broken.length ? broken.join('; ') : undefined;
}
