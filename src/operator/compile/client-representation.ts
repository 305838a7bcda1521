import type ClientRepresentation from '@keycloak/keycloak-admin-client/lib/defs/clientRepresentation.js';
import type { IdentityClient } from '../../../generated/types/crds/identityclient.ts';

/** The client's ID in Keycloak: spec.clientId, else metadata.name. */
export function clientIdOf(client: IdentityClient): string {
  return client.spec.clientId ?? client.metadata.name;
}

/**
 * The client fields this resource manages, as a Keycloak ClientRepresentation (OpenID Connect). The type decides
 * the flags: confidential clients authenticate with a secret, public ones cannot, bearer-only ones have no flows.
 */
export function compileClient(client: IdentityClient): ClientRepresentation {
  const { spec } = client;
  const type = spec.type ?? 'confidential';
  const bearerOnly = type === 'bearer-only';
  const attributes: Record<string, string> = {};
  if (spec.pkce) attributes['pkce.code.challenge.method'] = spec.pkce;
  if (spec.postLogoutRedirectUris?.length)
    attributes['post.logout.redirect.uris'] = spec.postLogoutRedirectUris.join('##');
  const representation: ClientRepresentation = {
    clientId: clientIdOf(client),
    name: spec.name,
    description: spec.description,
    enabled: spec.enabled ?? true,
    protocol: 'openid-connect',
    publicClient: type === 'public',
    bearerOnly,
    clientAuthenticatorType: type === 'confidential' ? 'client-secret' : undefined,
    rootUrl: spec.rootUrl,
    baseUrl: spec.baseUrl,
    redirectUris: spec.redirectUris ?? [],
    webOrigins: spec.webOrigins ?? [],
    standardFlowEnabled: !bearerOnly && (spec.standardFlow ?? true),
    directAccessGrantsEnabled: !bearerOnly && (spec.directAccessGrants ?? false),
    implicitFlowEnabled: false,
    serviceAccountsEnabled: type === 'confidential' && (spec.serviceAccount?.enabled ?? false),
    attributes: Object.keys(attributes).length ? attributes : undefined,
    defaultClientScopes: spec.defaultClientScopes,
    optionalClientScopes: spec.optionalClientScopes,
    protocolMappers: spec.protocolMappers?.map((m) => ({
      name: m.name,
      protocol: m.protocol ?? 'openid-connect',
      protocolMapper: m.protocolMapper,
      config: m.config ?? {},
    })),
  };
  return Object.fromEntries(Object.entries(representation).filter(([, v]) => v !== undefined));
}
