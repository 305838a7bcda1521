// What a client's compile and credentials need from the world besides its spec: the certificates its spec names
// in Secrets (client-jwt, SAML signing and encryption), and for a SAML client the realm's signing certificate that
// its application verifies Keycloak's documents with.
import type { IdentityClient } from '../../../../generated/types/crds/identityclient.ts';
import type { ClientInputs } from '../../compile/client-representation.ts';
import type { AdminClient } from '../../keycloak/admin-client.ts';
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

type KeysRepresentation = {
  keys?: {
    algorithm?: string;
    use?: string;
    status?: string;
    certificate?: string;
    providerPriority?: number;
  }[];
};

/** A base64 DER certificate as PEM. */
export const pemCertificate = (body: string) =>
  `-----BEGIN CERTIFICATE-----\n${body.match(/.{1,64}/g)?.join('\n')}\n-----END CERTIFICATE-----\n`;

/** The realm's active RS256 signing certificate (the one Keycloak signs SAML documents with), as PEM. */
export async function realmSigningCertificate(
  admin: AdminClient,
  ns: string,
  realm: string,
): Promise<string | undefined> {
  const res = await admin.call<KeysRepresentation>(ns, 'GET', `/${encodeURIComponent(realm)}/keys`);
  const usable = (res.body?.keys ?? []).filter(
    (k) => k.algorithm === 'RS256' && k.use === 'SIG' && (k.status ?? 'ACTIVE') === 'ACTIVE' && k.certificate,
  );
  usable.sort((a, b) => (b.providerPriority ?? 0) - (a.providerPriority ?? 0));
  const body = usable[0]?.certificate;
  return body ? pemCertificate(body) : undefined;
}
