import type { TrustedRoot } from '@sigstore/protobuf-specs';

/** Who must have signed a release: a pattern for the certificate's SAN and the exact OIDC issuer. */
export type SignerPolicy = { subjectAlternativeName: string; issuer: string; description: string };

/** What a verifier trusts: the Sigstore trusted root (CAs, transparency and CT logs) and the signer per version. */
export type UpdateTrust = {
  trustedRoot(): Promise<TrustedRoot>;
  signer(version: string): SignerPolicy;
};

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** The release workflow of the realmforge repository, run by GitHub Actions for the tag being installed. */
export function releaseWorkflowSigner(version: string): SignerPolicy {
  const identity = `https://github.com/realmforge/realmforge/.github/workflows/release.yml@refs/tags/v${version}`;
  return {
    subjectAlternativeName: `^${escapeRegExp(identity)}$`,
    issuer: 'https://token.actions.githubusercontent.com',
    description: identity,
  };
}

/** Production trust: Sigstore's public-good trusted root, fetched and verified through TUF, cached in `cacheDir`. */
export function publicGoodTrust(cacheDir: string): UpdateTrust {
  return {
    trustedRoot: async () => (await import('@sigstore/tuf')).getTrustedRoot({ cachePath: cacheDir }),
    signer: releaseWorkflowSigner,
  };
}
