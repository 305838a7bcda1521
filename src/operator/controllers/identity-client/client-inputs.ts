// What a client's compile needs from the world besides its spec: the certificates its spec names in Secrets
// (client-jwt, SAML signing and encryption). A SAML client's realm signing certificate is read from Keycloak
// (keycloak/realm-keys.ts).
import type { IdentityClient } from '../../../../generated/types/crds/identityclient.ts';
import type { ClientInputs } from '../../compile/client-representation.ts';
import type { Deps } from '../../runtime/deps.ts';
import { readSecretKey } from '../../runtime/read-secret.ts';

/** The certificates named by the spec, read from their Secrets in the client's namespace. */
export async function clientInputs(deps: Deps, client: IdentityClient): Promise<ClientInputs> {
  const ns = client.metadata.namespace ?? 'default';
  const read = (ref: { name: string; key: string } | undefined, field: string) =>
    ref ? readSecretKey(deps, ns, ref, field) : Promise.resolve(undefined);
  const saml = client.spec.saml;
  return {
    certificate: await read(
      client.spec.authentication?.certificateSecretRef,
      'spec.authentication.certificateSecretRef',
    ),
    samlSigningCertificate: await read(
      saml?.signingCertificateSecretRef,
      'spec.saml.signingCertificateSecretRef',
    ),
    samlEncryptionCertificate: await read(
      saml?.encryptionCertificateSecretRef,
      'spec.saml.encryptionCertificateSecretRef',
    ),
  };
}
