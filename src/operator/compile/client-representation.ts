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
/** What a client compile needs from the world: certificates read from their Secrets (client-jwt, SAML). */
export type ClientInputs = {
  readonly certificate?: string;
  readonly samlSigningCertificate?: string;
  readonly samlEncryptionCertificate?: string;
};

/** Whether the client speaks SAML. */
export const isSaml = (client: IdentityClient) => client.spec.protocol === 'saml';

/** Whether the client has a secret: a confidential OpenID Connect client. */
export const hasSecret = (client: IdentityClient) =>
  !isSaml(client) && (client.spec.type ?? 'confidential') === 'confidential';

/**
 * The SAML settings as Keycloak's client attributes (names from Keycloak's SamlConfigAttributes). Client signature
 * and encryption are always sent: Keycloak turns client signature on for a new SAML client that does not say, which
 * without a certificate would refuse every request.
 */
function samlAttributes(
  spec: IdentityClient['spec'],
  inputs: ClientInputs,
): Record<string, string | undefined> {
  const saml = spec.saml ?? {};
  const signing = inputs.samlSigningCertificate;
  const encryption = inputs.samlEncryptionCertificate;
  return {
    saml_assertion_consumer_url_post: saml.assertionConsumerServiceUrl,
    saml_single_logout_service_url_post: saml.singleLogoutServiceUrl,
    saml_name_id_format: saml.nameIdFormat,
    saml_force_name_id_format: str(saml.forceNameIdFormat),
    'saml.server.signature': str(saml.signDocuments),
    'saml.assertion.signature': str(saml.signAssertions),
    'saml.signature.algorithm': saml.signatureAlgorithm,
    'saml.force.post.binding': str(saml.forcePostBinding),
    'saml.client.signature': str(Boolean(signing)),
    'saml.signing.certificate': signing ? certificateBody(signing) : undefined,
    'saml.encrypt': str(Boolean(encryption)),
    'saml.encryption.certificate': encryption ? certificateBody(encryption) : undefined,
  };
}

const str = (v: string | number | boolean | undefined) => (v === undefined ? undefined : String(v));

/** The certificate as Keycloak stores it for client-jwt: the base64 body of the PEM, no armour or line breaks. */
export function certificateBody(pem: string): string {
  return pem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
}

/** The client attributes the typed fields compile to (Keycloak's attribute names), undefined ones left out. */
function typedAttributes(
  spec: IdentityClient['spec'],
  inputs: ClientInputs,
): Record<string, string | undefined> {
  const auth = spec.authentication;
  const t = spec.tokens;
  return {
    'pkce.code.challenge.method': spec.pkce,
    'post.logout.redirect.uris': spec.postLogoutRedirectUris?.length
      ? spec.postLogoutRedirectUris.join('##')
      : undefined,
    'use.jwks.url': auth?.method === 'client-jwt' ? str(Boolean(auth.jwksUrl)) : undefined,
    'jwks.url': auth?.jwksUrl,
    'jwt.credential.certificate': inputs.certificate ? certificateBody(inputs.certificate) : undefined,
    'token.endpoint.auth.signing.alg': auth?.signatureAlgorithm,
    'x509.subjectdn': auth?.subjectDN,
    'x509.allow.regex.pattern.comparison': str(auth?.allowRegex),
    'display.on.consent.screen': spec.consent?.screenText ? 'true' : undefined,
    'consent.screen.text': spec.consent?.screenText,
    'oauth2.device.authorization.grant.enabled': str(spec.deviceAuthorizationGrant),
    'oidc.ciba.grant.enabled': str(spec.ciba),
    'frontchannel.logout.url': spec.frontchannelLogout?.url,
    'frontchannel.logout.session.required': str(spec.frontchannelLogout?.sessionRequired),
    'backchannel.logout.url': spec.backchannelLogout?.url,
    'backchannel.logout.session.required': str(spec.backchannelLogout?.sessionRequired),
    'backchannel.logout.revoke.offline.tokens': str(spec.backchannelLogout?.revokeOfflineTokens),
    'access.token.lifespan': str(t?.accessTokenLifespan),
    'client.session.idle.timeout': str(t?.clientSessionIdleTimeout),
    'client.session.max.lifespan': str(t?.clientSessionMaxLifespan),
    'client.offline.session.idle.timeout': str(t?.clientOfflineSessionIdleTimeout),
    'client.offline.session.max.lifespan': str(t?.clientOfflineSessionMaxLifespan),
    'use.refresh.tokens': str(t?.useRefreshTokens),
    'client.use.lightweight.access.token.enabled': str(t?.useLightweightAccessToken),
    'id.token.signed.response.alg': t?.idTokenSignatureAlgorithm,
    'access.token.signed.response.alg': t?.accessTokenSignatureAlgorithm,
  };
}

/**
 * The client fields this resource manages, as a Keycloak ClientRepresentation (OpenID Connect). The type decides
 * the flags: confidential clients authenticate (with a secret unless spec.authentication says otherwise), public
 * ones cannot, bearer-only ones have no flows. Free-form spec.attributes come first; typed fields win.
 */
export function compileClient(client: IdentityClient, inputs: ClientInputs = {}): ClientRepresentation {
  const { spec } = client;
  const type = spec.type ?? 'confidential';
  const bearerOnly = type === 'bearer-only';
  const saml = isSaml(client);
  const typed = Object.entries(saml ? samlAttributes(spec, inputs) : typedAttributes(spec, inputs)).filter(
    (e): e is [string, string] => e[1] !== undefined,
  );
  const attributes: Record<string, string> = { ...spec.attributes, ...Object.fromEntries(typed) };
  const overrides = spec.authenticationFlowOverrides;
  const representation: ClientRepresentation = {
    clientId: clientIdOf(client),
    name: spec.name,
    description: spec.description,
    enabled: spec.enabled ?? true,
    protocol: saml ? 'saml' : 'openid-connect',
    publicClient: !saml && type === 'public',
    bearerOnly: !saml && bearerOnly,
    clientAuthenticatorType:
      !saml && type === 'confidential' ? (spec.authentication?.method ?? 'client-secret') : undefined,
    rootUrl: spec.rootUrl,
    baseUrl: spec.baseUrl,
    redirectUris: spec.redirectUris ?? [],
    webOrigins: spec.webOrigins ?? [],
    standardFlowEnabled: !bearerOnly && (spec.standardFlow ?? true),
    directAccessGrantsEnabled: !saml && !bearerOnly && (spec.directAccessGrants ?? false),
    implicitFlowEnabled: !saml && !bearerOnly && (spec.implicitFlow ?? false),
    serviceAccountsEnabled: !saml && type === 'confidential' && (spec.serviceAccount?.enabled ?? false),
    authorizationServicesEnabled: spec.authorization ? true : undefined,
    consentRequired: spec.consent?.required,
    fullScopeAllowed: spec.fullScopeAllowed,
    frontchannelLogout: spec.frontchannelLogout?.enabled,
    // Flow aliases here; the sync turns them into the flow ids Keycloak stores.
    authenticationFlowBindingOverrides: overrides
      ? (Object.fromEntries(
          Object.entries({ browser: overrides.browser, direct_grant: overrides.directGrant }).filter(
            ([, v]) => v !== undefined,
          ),
        ) as Record<string, string>)
      : undefined,
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
