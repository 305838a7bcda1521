// The keys a realm signs with (GET /{realm}/keys): a SAML client's applications need the realm's signing
// certificate to check what Keycloak sends them.
import type { AdminClient } from './admin-client.ts';

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
const pemCertificate = (body: string) =>
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
