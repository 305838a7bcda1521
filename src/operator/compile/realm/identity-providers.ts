// An IdentityRealm's identity providers (spec.identityProviders) as Keycloak representations. Every field the
// operator manages is sent explicitly (Keycloak's default when the spec is silent), so what Keycloak answers
// compares equal and a field removed from the spec goes back to its default. The client secret never appears:
// the representation carries Keycloak's mask and a keyed hash of the Secret's value (config
// realmforge.dev/secret-hash, an HMAC with the server's key: controllers/identity-realm/server-hash-key.ts), so a
// rotated Secret is drift; the real value is put in only when sending. The key
// that verifies the provider's signatures (signingKeyRef) is public and Keycloak echoes it, so it is sent and
// compared as it is.
import type { IdentityProvider } from '../../../../generated/types/crds/federation.ts';
import { ValidationError } from '../../../core/errors.ts';
import { secretHash } from '../secret-hash.ts';

/** What Keycloak answers instead of a stored secret (and keeps the stored one when it comes back). */
export const secretMask = '**********';
/** The config entry holding the hash of the secret last sent. */
export const secretHashKey = 'realmforge.dev/secret-hash';
/** Keycloak's first-login flow when an identity provider names none. */
export const defaultFirstBrokerLoginFlow = 'first broker login';

// Config keys that hold secrets or keys: refused inline, they come from Secret references (the field to use).
const fromSecrets: Record<string, string> = {
  clientSecret: 'clientSecretRef',
  signingPrivateKey: 'clientSecretRef',
  privateKey: 'clientSecretRef',
  password: 'clientSecretRef',
  publicKeySignatureVerifier: 'signingKeyRef',
  signingCertificate: 'signingKeyRef',
};
/** Where each provider type takes the key that verifies its signatures. */
const signingKeyField: Record<string, string> = {
  oidc: 'publicKeySignatureVerifier',
  'keycloak-oidc': 'publicKeySignatureVerifier',
  saml: 'signingCertificate',
};

export type IdentityProviderInputs = {
  /** The client secret read from clientSecretRef, when it is set. */
  readonly clientSecret?: string;
  /** The signing key read from signingKeyRef, when it is set. */
  readonly signingKey?: string;
  /** Keycloak's major version: 26 has hideOnLogin as a field, 25 as config hideOnLoginPage. */
  readonly keycloakMajor: number;
  /** The server's hash key (secretHash); needed when clientSecret is set. */
  readonly hashKey?: string;
};

/** One identity provider as Keycloak represents it (without its mappers). */
export function compileIdentityProvider(
  realm: string,
  idp: IdentityProvider,
  index: number,
  inputs: IdentityProviderInputs,
): Record<string, unknown> {
  const where = `spec.identityProviders[${index}] (${idp.alias})`;
  for (const [key, ref] of Object.entries(fromSecrets))
    if (idp.config?.[key] !== undefined)
      throw new ValidationError(
        `${where}: config.${key} is refused inline: put it in a Secret and set ${ref}`,
      );
  if (idp.clientSecretRef && (inputs.clientSecret === undefined || inputs.hashKey === undefined))
    throw new ValidationError(`${where}: clientSecretRef was not read`);
  const signing = idp.signingKeyRef ? signingConfig(where, idp, inputs.signingKey) : {};
  const hide = idp.hideOnLogin ?? false;
  const config: Record<string, string> = {
    ...idp.config,
    syncMode: idp.syncMode ?? 'LEGACY',
    ...signing,
    ...(inputs.keycloakMajor < 26 ? { hideOnLoginPage: String(hide) } : {}),
    ...(inputs.clientSecret !== undefined && inputs.hashKey !== undefined
      ? {
          clientSecret: secretMask,
          [secretHashKey]: secretHash(inputs.hashKey, `${realm}/${idp.alias}`, inputs.clientSecret),
        }
      : {}),
  };
  return {
    alias: idp.alias,
    providerId: idp.providerId,
    displayName: idp.displayName ?? '',
    enabled: idp.enabled ?? true,
    trustEmail: idp.trustEmail ?? false,
    storeToken: idp.storeToken ?? false,
    linkOnly: idp.linkOnly ?? false,
    ...(inputs.keycloakMajor >= 26 ? { hideOnLogin: hide } : {}),
    firstBrokerLoginFlowAlias: idp.firstBrokerLoginFlowAlias ?? defaultFirstBrokerLoginFlow,
    postBrokerLoginFlowAlias: idp.postBrokerLoginFlowAlias ?? '',
    config,
  };
}

/** The config that makes Keycloak verify the provider's signatures with the key from signingKeyRef; a config that
 * says otherwise (validateSignature off, the JWKS URL on) is refused rather than overridden. */
function signingConfig(where: string, idp: IdentityProvider, key: string | undefined) {
  const field = signingKeyField[idp.providerId];
  if (!field)
    throw new ValidationError(
      `${where}: signingKeyRef is for oidc, keycloak-oidc and saml providers, not ${idp.providerId}: remove it`,
    );
  if (key === undefined) throw new ValidationError(`${where}: signingKeyRef was not read`);
  const contradicts = [
    idp.config?.validateSignature === 'false' ? 'config.validateSignature is "false"' : '',
    field === 'publicKeySignatureVerifier' && idp.config?.useJwksUrl === 'true'
      ? 'config.useJwksUrl is "true" (the key would come from jwksUrl)'
      : '',
  ].filter(Boolean);
  if (contradicts.length)
    throw new ValidationError(
      `${where}: signingKeyRef is set but ${contradicts.join(' and ')}: remove one or the other`,
    );
  return {
    validateSignature: 'true',
    ...(field === 'publicKeySignatureVerifier' ? { useJwksUrl: 'false' } : {}),
    [field]: key.trim(),
  };
}

/** The mappers of one identity provider, as Keycloak represents them. */
export function compileIdentityProviderMappers(idp: IdentityProvider): Record<string, unknown>[] {
  return (idp.mappers ?? []).map((m) => ({
    name: m.name,
    identityProviderAlias: idp.alias,
    identityProviderMapper: m.type,
    config: { ...m.config, syncMode: m.syncMode ?? 'INHERIT' },
  }));
}
