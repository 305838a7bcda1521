import type { TrustedRoot } from '@sigstore/protobuf-specs';
import { RealmforgeError } from '../../core/errors.ts';
import { isLegacyCosignBundle, legacyToSigstoreBundle } from './legacy-bundle.ts';
import type { SignerPolicy } from './trust.ts';

/** Who signed, as the verified certificate says. */
export type VerifiedSigner = { identity: string; issuer: string; format: 'sigstore' | 'legacy-cosign' };

const refuse = (what: string, cause?: unknown) =>
  new RealmforgeError('validation', `${what}; refusing to update, nothing was changed`, { cause });

/**
 * Verifies a Sigstore bundle (or a legacy cosign bundle) over `artifact`: the certificate chains to the trusted
 * root and carries an SCT from a trusted CT log, the signature is in a trusted transparency log, the signature
 * matches the bytes, and the certificate names the expected signer and issuer. Throws a validation error otherwise.
 */
export async function verifySignature(
  bundleText: string,
  artifact: Buffer,
  trustedRoot: TrustedRoot,
  policy: SignerPolicy,
  bundleName: string,
): Promise<VerifiedSigner> {
  const [{ bundleFromJSON }, { toSignedEntity, toTrustMaterial, Verifier }] = await Promise.all([
    import('@sigstore/bundle'),
    import('@sigstore/verify'),
  ]);
  let parsed: unknown;
  try {
    parsed = JSON.parse(bundleText);
  } catch (error) {
    throw refuse(`${bundleName} is not JSON`, error);
  }
  const legacy = isLegacyCosignBundle(parsed);
  let bundle: ReturnType<typeof bundleFromJSON>;
  try {
    bundle = bundleFromJSON(isLegacyCosignBundle(parsed) ? legacyToSigstoreBundle(parsed, artifact) : parsed);
  } catch (error) {
    throw refuse(`${bundleName} is not a Sigstore bundle (${(error as Error).message})`, error);
  }
  // The thresholds are Sigstore's defaults, spelled out so that no caller can lower them.
  const verifier = new Verifier(toTrustMaterial(trustedRoot), {
    tlogThreshold: 1,
    ctlogThreshold: 1,
    timestampThreshold: 1,
  });
  let signer: ReturnType<InstanceType<typeof Verifier>['verify']>;
  try {
    signer = verifier.verify(toSignedEntity(bundle, artifact), {
      subjectAlternativeName: policy.subjectAlternativeName,
      extensions: { issuer: policy.issuer },
    });
  } catch (error) {
    const e = error as Error & { code?: string };
    if (e.code === 'UNTRUSTED_SIGNER_ERROR') {
      throw refuse(
        `${bundleName} was signed by an unexpected identity (${e.message}); expected ${policy.description} from ${policy.issuer}`,
        error,
      );
    }
    throw refuse(`${bundleName} does not verify: ${e.message}${e.code ? ` (${e.code})` : ''}`, error);
  }
  return {
    identity: signer.identity?.subjectAlternativeName ?? '',
    issuer: signer.identity?.extensions?.issuer ?? '',
    format: legacy ? 'legacy-cosign' : 'sigstore',
  };
}
