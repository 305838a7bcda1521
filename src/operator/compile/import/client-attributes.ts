// A client's attributes: those the CRD types (OpenID Connect or SAML) become typed fields, the inverse of
// compile/client-representation.ts; certificates become Secret references; the rest stays spec.attributes unless
// a new client has it anyway.

import { compact, type ImportContext, type Json, objectAt } from './context.ts';
import { secretName } from './identity-providers.ts';

type Typed = { path: string[]; kind?: 'boolean' | 'number' | 'list' };

const oidc: Record<string, Typed> = {
  'pkce.code.challenge.method': { path: ['pkce'] },
  'post.logout.redirect.uris': { path: ['postLogoutRedirectUris'], kind: 'list' },
  'jwks.url': { path: ['authentication', 'jwksUrl'] },
  'token.endpoint.auth.signing.alg': { path: ['authentication', 'signatureAlgorithm'] },
  'x509.subjectdn': { path: ['authentication', 'subjectDN'] },
  'x509.allow.regex.pattern.comparison': { path: ['authentication', 'allowRegex'], kind: 'boolean' },
  'consent.screen.text': { path: ['consent', 'screenText'] },
  'oauth2.device.authorization.grant.enabled': { path: ['deviceAuthorizationGrant'], kind: 'boolean' },
  'oidc.ciba.grant.enabled': { path: ['ciba'], kind: 'boolean' },
  'frontchannel.logout.url': { path: ['frontchannelLogout', 'url'] },
  'frontchannel.logout.session.required': {
    path: ['frontchannelLogout', 'sessionRequired'],
    kind: 'boolean',
  },
  'backchannel.logout.url': { path: ['backchannelLogout', 'url'] },
  'backchannel.logout.session.required': { path: ['backchannelLogout', 'sessionRequired'], kind: 'boolean' },
  'backchannel.logout.revoke.offline.tokens': {
    path: ['backchannelLogout', 'revokeOfflineTokens'],
    kind: 'boolean',
  },
  'access.token.lifespan': { path: ['tokens', 'accessTokenLifespan'], kind: 'number' },
  'client.session.idle.timeout': { path: ['tokens', 'clientSessionIdleTimeout'], kind: 'number' },
  'client.session.max.lifespan': { path: ['tokens', 'clientSessionMaxLifespan'], kind: 'number' },
  'client.offline.session.idle.timeout': {
    path: ['tokens', 'clientOfflineSessionIdleTimeout'],
    kind: 'number',
  },
  'client.offline.session.max.lifespan': {
    path: ['tokens', 'clientOfflineSessionMaxLifespan'],
    kind: 'number',
  },
  'use.refresh.tokens': { path: ['tokens', 'useRefreshTokens'], kind: 'boolean' },
  'client.use.lightweight.access.token.enabled': {
    path: ['tokens', 'useLightweightAccessToken'],
    kind: 'boolean',
  },
  'id.token.signed.response.alg': { path: ['tokens', 'idTokenSignatureAlgorithm'] },
  'access.token.signed.response.alg': { path: ['tokens', 'accessTokenSignatureAlgorithm'] },
};

const saml: Record<string, Typed> = {
  saml_assertion_consumer_url_post: { path: ['saml', 'assertionConsumerServiceUrl'] },
  saml_single_logout_service_url_post: { path: ['saml', 'singleLogoutServiceUrl'] },
  saml_name_id_format: { path: ['saml', 'nameIdFormat'] },
  saml_force_name_id_format: { path: ['saml', 'forceNameIdFormat'], kind: 'boolean' },
  'saml.server.signature': { path: ['saml', 'signDocuments'], kind: 'boolean' },
  'saml.assertion.signature': { path: ['saml', 'signAssertions'], kind: 'boolean' },
  'saml.signature.algorithm': { path: ['saml', 'signatureAlgorithm'] },
  'saml.force.post.binding': { path: ['saml', 'forcePostBinding'], kind: 'boolean' },
};

/** What a new client has among its attributes without being told (Keycloak 25 and 26). */
export const newClientAttributes: Record<string, string> = {
  realm_client: 'false',
  'oidc.ciba.grant.enabled': 'false',
  'oauth2.device.authorization.grant.enabled': 'false',
  'backchannel.logout.session.required': 'true',
  'backchannel.logout.revoke.offline.tokens': 'false',
  'display.on.consent.screen': 'false',
  'saml.client.signature': 'false',
  'saml.encrypt': 'false',
};

const value = (raw: string, kind: Typed['kind']) =>
  kind === 'boolean'
    ? raw === 'true'
    : kind === 'number'
      ? Number(raw)
      : kind === 'list'
        ? raw.split('##').filter(Boolean)
        : raw;

/** The typed fields (nested objects of the spec) and the remaining free-form attributes of client `c`. */
export function importClientAttributes(c: Json, ctx: ImportContext, isSaml: boolean) {
  const attributes = { ...(objectAt(c.attributes) as Record<string, string>) };
  const typed: Json = {};
  const table = isSaml ? saml : oidc;
  const put = (at: string[], v: unknown) => {
    let node = typed;
    for (const key of at.slice(0, -1)) {
      node[key] ??= {};
      node = node[key] as Json;
    }
    node[at.at(-1) as string] = v;
  };
  for (const [name, raw] of Object.entries(attributes)) {
    const field = table[name];
    if (newClientAttributes[name] === raw) delete attributes[name];
    else if (field && !(field.kind === 'list' && raw === '+')) {
      put(field.path, value(raw, field.kind));
      delete attributes[name];
    }
  }
  // Derived by the compiler from other fields: dropped when they say what it would.
  if (attributes['display.on.consent.screen'] === 'true' && attributes['consent.screen.text'])
    delete attributes['display.on.consent.screen'];
  if (
    attributes['use.jwks.url'] ===
    String(Boolean(attributes['jwks.url'] ?? objectAt(typed.authentication).jwksUrl))
  )
    delete attributes['use.jwks.url'];
  if (attributes['post.logout.redirect.uris'] === '+') delete attributes['post.logout.redirect.uris'];
  for (const [name, key, field] of [
    ['jwt.credential.certificate', 'certificate', ['authentication', 'certificateSecretRef']],
    ['saml.signing.certificate', 'certificate', ['saml', 'signingCertificateSecretRef']],
    ['saml.encryption.certificate', 'certificate', ['saml', 'encryptionCertificateSecretRef']],
  ] as const) {
    const cert = attributes[name];
    if (!cert) continue;
    put(
      [...field],
      ctx.secret(
        secretName(ctx.realm, String(c.clientId), name.split('.').slice(-2, -1)[0] ?? 'cert'),
        key,
        pem(cert),
        'client',
      ),
    );
    delete attributes[name];
  }
  for (const flag of ['saml.client.signature', 'saml.encrypt'])
    if (
      attributes[flag] === 'true' &&
      objectAt(typed.saml)[
        flag === 'saml.encrypt' ? 'encryptionCertificateSecretRef' : 'signingCertificateSecretRef'
      ]
    )
      delete attributes[flag];
  return { attributes: compact(attributes), typed };
}

/** Keycloak keeps a certificate's base64 body; the Secret holds it as PEM. */
const pem = (body: string) =>
  `-----BEGIN CERTIFICATE-----\n${body.match(/.{1,64}/g)?.join('\n') ?? body}\n-----END CERTIFICATE-----\n`;
