// The Secrets the federation sections refer to: each identity provider's client secret and signing key, each LDAP
// provider's bind password, read before anything is written (a missing Secret writes nothing). A forbidden read
// is SecretAccessDenied, a missing key names the field.
import type { IdentityRealm } from '../../../../generated/types/crds/identityrealm.ts';
import { RealmforgeError } from '../../../core/errors.ts';
import type { FederationSecrets } from '../../keycloak/collections/federation.ts';
import type { KeycloakDeps } from '../../keycloak/keycloak-deps.ts';
import { readSecretKey } from '../../runtime/read-secret.ts';
import { StuckError } from '../shared/stuck-error.ts';

async function read(deps: KeycloakDeps, ns: string, ref: { name: string; key: string }, field: string) {
  try {
    return await readSecretKey(deps, ns, ref, field);
  } catch (error) {
    if (!(error instanceof RealmforgeError && error.kind === 'auth')) throw error;
    throw new StuckError('auth', 'Pending', 'SecretAccessDenied', `${field}: ${error.message}`, {
      cause: error,
    });
  }
}

/** Reads every Secret the realm's federation sections refer to. */
export async function federationSecrets(
  deps: KeycloakDeps,
  realm: IdentityRealm,
): Promise<FederationSecrets> {
  const ns = realm.metadata.namespace ?? 'default';
  const identityProviders = new Map<string, string>();
  const ldap = new Map<string, string>();
  const signingKeys = new Map<string, string>();
  for (const [i, idp] of (realm.spec.identityProviders ?? []).entries()) {
    if (idp.clientSecretRef)
      identityProviders.set(
        idp.alias,
        await read(deps, ns, idp.clientSecretRef, `spec.identityProviders[${i}].clientSecretRef`),
      );
    if (idp.signingKeyRef)
      signingKeys.set(
        idp.alias,
        await read(deps, ns, idp.signingKeyRef, `spec.identityProviders[${i}].signingKeyRef`),
      );
  }
  for (const [i, provider] of (realm.spec.userFederation?.ldap ?? []).entries())
    if (provider.bindCredentialRef)
      ldap.set(
        provider.name,
        await read(deps, ns, provider.bindCredentialRef, `spec.userFederation.ldap[${i}].bindCredentialRef`),
      );
  return { identityProviders, ldap, signingKeys };
}
