// Identity providers and their mappers: the inverse of compile/realm/identity-providers.ts. The client secret
// becomes a Secret reference; the key that verifies the provider's signatures (public, but the CRD takes it from a
// Secret too) becomes signingKeyRef; the operator's own config entries are dropped.
import { defaultFirstBrokerLoginFlow } from '../realm/identity-providers.ts';
import {
  compact,
  type ImportContext,
  type Json,
  listAt,
  noteRest,
  objectAt,
  type RealmSpec,
} from './context.ts';

type Provider = NonNullable<RealmSpec['identityProviders']>[number];

export const identityProvidersKeys = ['identityProviders', 'identityProviderMappers'];

const providerIds = new Set([
  'oidc',
  'keycloak-oidc',
  'saml',
  'github',
  'gitlab',
  'google',
  'microsoft',
  'facebook',
  'linkedin-openid-connect',
  'twitter',
  'instagram',
  'stackoverflow',
  'bitbucket',
  'openshift-v4',
  'paypal',
]);
const signingKeyField: Record<string, string> = {
  oidc: 'publicKeySignatureVerifier',
  'keycloak-oidc': 'publicKeySignatureVerifier',
  saml: 'signingCertificate',
};
/** Keycloak's values of the provider fields the CRD has no field for. */
const unexpressedDefaults: Json = {
  updateProfileFirstLoginMode: 'on',
  addReadTokenRoleOnCreate: false,
  authenticateByDefault: false,
  hideOnLogin: false,
  internalId: '',
  organizationId: '',
};
/** `types` is Keycloak's, derived from the provider type (26.x). */
const used = [
  'types',
  'alias',
  'providerId',
  'displayName',
  'enabled',
  'trustEmail',
  'storeToken',
  'linkOnly',
  'hideOnLogin',
  'firstBrokerLoginFlowAlias',
  'postBrokerLoginFlowAlias',
  'config',
];

/** A Kubernetes name for a Secret named after realm objects (lower case, '-' for anything else). */
export const secretName = (...parts: string[]) =>
  parts
    .join('-')
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 253);

export function importIdentityProviders(exp: Json, ctx: ImportContext): Partial<RealmSpec> {
  const mappers = listAt(exp.identityProviderMappers);
  const providers: Provider[] = [];
  for (const idp of listAt(exp.identityProviders)) {
    const alias = String(idp.alias);
    const path = `identityProviders[${alias}]`;
    if (!providerIds.has(String(idp.providerId))) {
      ctx.note(path, `provider type ${String(idp.providerId)} has no field in the CRD`);
      continue;
    }
    noteRest(ctx, path, idp, used, unexpressedDefaults, 'a provider setting the CRD has no field for');
    const config = { ...(objectAt(idp.config) as Record<string, string>) };
    const take = (key: string) => {
      const value = config[key];
      delete config[key];
      return value;
    };
    const syncMode = take('syncMode');
    const hideOnLoginPage = take('hideOnLoginPage');
    const clientSecret = take('clientSecret');
    const keyField = signingKeyField[String(idp.providerId)];
    const signingKey = keyField ? take(keyField) : undefined;
    if (signingKey) {
      if (config.validateSignature === 'true') take('validateSignature');
      if (config.useJwksUrl === 'false') take('useJwksUrl');
    }
    const hide = idp.hideOnLogin === true || hideOnLoginPage === 'true';
    providers.push(
      compact({
        alias,
        providerId: idp.providerId,
        displayName: idp.displayName || undefined,
        enabled: idp.enabled === false ? false : undefined,
        trustEmail: idp.trustEmail === true ? true : undefined,
        storeToken: idp.storeToken === true ? true : undefined,
        linkOnly: idp.linkOnly === true ? true : undefined,
        hideOnLogin: hide ? true : undefined,
        firstBrokerLoginFlowAlias:
          idp.firstBrokerLoginFlowAlias && idp.firstBrokerLoginFlowAlias !== defaultFirstBrokerLoginFlow
            ? idp.firstBrokerLoginFlowAlias
            : undefined,
        postBrokerLoginFlowAlias: idp.postBrokerLoginFlowAlias || undefined,
        syncMode: syncMode && syncMode !== 'LEGACY' ? syncMode : undefined,
        config,
        clientSecretRef: clientSecret
          ? ctx.secret(secretName(ctx.realm, 'idp', alias), 'clientSecret', clientSecret)
          : undefined,
        signingKeyRef: signingKey
          ? ctx.secret(secretName(ctx.realm, 'idp', alias, 'signing'), 'key', signingKey)
          : undefined,
        mappers: mappers.filter((m) => m.identityProviderAlias === alias).map(importProviderMapper),
      }) as Provider,
    );
  }
  return compact({ identityProviders: providers }) as Partial<RealmSpec>;
}

function importProviderMapper(m: Json) {
  const { syncMode, ...config } = objectAt(m.config) as Record<string, string>;
  return compact({
    name: String(m.name),
    type: String(m.identityProviderMapper),
    syncMode: syncMode && syncMode !== 'INHERIT' ? syncMode : undefined,
    config,
  });
}
