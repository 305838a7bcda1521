import { createHash } from 'node:crypto';

/** The bundle `cosign sign-blob --bundle` wrote before the Sigstore bundle format existed. */
export type LegacyCosignBundle = {
  base64Signature: string;
  cert: string;
  rekorBundle: {
    SignedEntryTimestamp: string;
    Payload: { body: string; integratedTime: number; logIndex: number; logID: string };
  };
};

/** True for a parsed legacy cosign bundle (it has no mediaType and carries a rekorBundle). */
export function isLegacyCosignBundle(value: unknown): value is LegacyCosignBundle {
  const v = value as Partial<LegacyCosignBundle> | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    !('mediaType' in v) &&
    typeof v.base64Signature === 'string' &&
    typeof v.cert === 'string' &&
    typeof v.rekorBundle?.Payload?.body === 'string'
  );
}

/**
 * Rewrites a legacy cosign bundle as the equivalent Sigstore bundle v0.1 (same certificate, signature, Rekor
 * entry and signed entry timestamp), so one verifier checks both. The digest is the blob's, which the
 * verifier compares with the Rekor entry.
 */
export function legacyToSigstoreBundle(legacy: LegacyCosignBundle, blob: Buffer): object {
  const pem = Buffer.from(legacy.cert, 'base64').toString('utf8');
  const der = pem.replace(/-----(BEGIN|END) CERTIFICATE-----|\s+/g, '');
  const { body, integratedTime, logIndex, logID } = legacy.rekorBundle.Payload;
  const entry = JSON.parse(Buffer.from(body, 'base64').toString('utf8')) as {
    kind?: string;
    apiVersion?: string;
  };
  return {
    mediaType: 'application/vnd.dev.sigstore.bundle+json;version=0.1',
    verificationMaterial: {
      x509CertificateChain: { certificates: [{ rawBytes: der }] },
      tlogEntries: [
        {
          logIndex: String(logIndex),
          logId: { keyId: Buffer.from(logID, 'hex').toString('base64') },
          kindVersion: { kind: entry.kind ?? '', version: entry.apiVersion ?? '' },
          integratedTime: String(integratedTime),
          inclusionPromise: { signedEntryTimestamp: legacy.rekorBundle.SignedEntryTimestamp },
          canonicalizedBody: body,
        },
      ],
    },
    messageSignature: {
      messageDigest: { algorithm: 'SHA2_256', digest: createHash('sha256').update(blob).digest('base64') },
      signature: legacy.base64Signature,
    },
  };
}
