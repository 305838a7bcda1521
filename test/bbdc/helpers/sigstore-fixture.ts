// A local Sigstore for tests: a Fulcio-like CA, a certificate-transparency log and a Rekor-like log, all made here
// with node:crypto and @peculiar/x509, and a trusted root that names them. It signs blobs the way `cosign
// sign-blob` does (a short-lived certificate with an SCT, a hashedrekord entry with a signed entry timestamp) and
// writes both the Sigstore bundle and the legacy cosign bundle.
import 'reflect-metadata';
import { createHash, KeyObject, sign as nodeSign, webcrypto } from 'node:crypto';

type CryptoKey = webcrypto.CryptoKey;
type CryptoKeyPair = webcrypto.CryptoKeyPair;

import * as x509 from '@peculiar/x509';
import { json as canonicalJson, X509Certificate as SigstoreCert } from '@sigstore/core';

const crypto = webcrypto;
x509.cryptoProvider.set(crypto);
const ec = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const OID_ISSUER_V1 = '1.3.6.1.4.1.57264.1.1';
const OID_SCT = '1.3.6.1.4.1.11129.2.4.2';

/** Who signs: the certificate's URI SAN and its OIDC issuer extension. */
export type SignerIdentity = { san: string; issuer: string };

/** Both bundle formats for one signature over a blob. */
export type SignedBlob = { bundle: object; legacyBundle: object };

type KeyPair = { keys: CryptoKeyPair; spki: Buffer };

async function keyPair(): Promise<KeyPair> {
  const keys = (await crypto.subtle.generateKey(ec, true, ['sign', 'verify'])) as CryptoKeyPair;
  return { keys, spki: Buffer.from(await crypto.subtle.exportKey('spki', keys.publicKey)) };
}

function sign(key: CryptoKey, data: Buffer): Buffer {
  return nodeSign('sha256', data, { key: KeyObject.from(key), dsaEncoding: 'der' });
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest();
const u16 = (n: number) => Buffer.from([n >> 8, n & 255]);
const u24 = (n: number) => Buffer.from([n >> 16, (n >> 8) & 255, n & 255]);
const derOctets = (body: Buffer) => {
  const len =
    body.length < 128
      ? Buffer.from([body.length])
      : body.length < 256
        ? Buffer.from([0x81, body.length])
        : Buffer.from([0x82, body.length >> 8, body.length & 255]);
  return Buffer.concat([Buffer.from([0x04]), len, body]);
};

function tlogInstance(kp: KeyPair, baseUrl: string, start: Date) {
  return {
    baseUrl,
    hashAlgorithm: 'SHA2_256',
    publicKey: {
      rawBytes: kp.spki.toString('base64'),
      keyDetails: 'PKIX_ECDSA_P256_SHA_256',
      validFor: { start: start.toISOString() },
    },
    logId: { keyId: sha256(kp.spki).toString('base64') },
  };
}

/** Makes a fresh CA, CT log and transparency log; `trustedRoot` is what the verifier is given. */
export async function createLocalSigstore() {
  const start = new Date(Date.now() - 3600_000);
  const end = new Date(Date.now() + 365 * 86400_000);
  const ca = await keyPair();
  const ct = await keyPair();
  const rekor = await keyPair();
  const root = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01',
    name: 'CN=test-fulcio, O=bbdc tests',
    notBefore: start,
    notAfter: end,
    keys: ca.keys,
    signingAlgorithm: ec,
    extensions: [
      new x509.BasicConstraintsExtension(true, 1, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(ca.keys.publicKey),
    ],
  });
  const trustedRoot = {
    mediaType: 'application/vnd.dev.sigstore.trustedroot+json;version=0.1',
    tlogs: [tlogInstance(rekor, 'https://rekor.test', start)],
    certificateAuthorities: [
      {
        subject: { organization: 'bbdc tests', commonName: 'test-fulcio' },
        uri: 'https://fulcio.test',
        certChain: { certificates: [{ rawBytes: Buffer.from(root.rawData).toString('base64') }] },
        validFor: { start: start.toISOString() },
      },
    ],
    ctlogs: [tlogInstance(ct, 'https://ctfe.test', start)],
    timestampAuthorities: [],
  };
  let serial = 100;
  let logIndex = 1000;

  async function leafCertificate(signer: SignerIdentity, leafKey: KeyPair): Promise<Buffer> {
    const params = {
      serialNumber: (serial++).toString(16).padStart(2, '0'),
      subject: '',
      issuer: root.subject,
      notBefore: new Date(Date.now() - 60_000),
      notAfter: new Date(Date.now() + 600_000),
      publicKey: leafKey.keys.publicKey,
      signingKey: ca.keys.privateKey,
      signingAlgorithm: ec,
    };
    const base = [
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension(['1.3.6.1.5.5.7.3.3']),
      await x509.SubjectKeyIdentifierExtension.create(leafKey.keys.publicKey),
      await x509.AuthorityKeyIdentifierExtension.create(ca.keys.publicKey),
      new x509.SubjectAlternativeNameExtension([{ type: 'url', value: signer.san }], true),
      new x509.Extension(OID_ISSUER_V1, false, Buffer.from(signer.issuer, 'ascii')),
    ];
    // The SCT signs the precertificate: the final certificate's TBS without the SCT extension.
    const pre = await x509.X509CertificateGenerator.create({ ...params, extensions: base });
    const tbs = SigstoreCert.parse(Buffer.from(pre.rawData)).tbsCertificate.toDER();
    const timestamp = Buffer.alloc(8);
    timestamp.writeBigUInt64BE(BigInt(Date.now() - 30_000));
    const signed = Buffer.concat([
      Buffer.from([0, 0]),
      timestamp,
      u16(1),
      sha256(ca.spki),
      u24(tbs.length),
      tbs,
      u16(0),
    ]);
    const sig = sign(ct.keys.privateKey, signed);
    const sct = Buffer.concat([
      Buffer.from([0]),
      sha256(ct.spki),
      timestamp,
      u16(0),
      Buffer.from([4, 3]),
      u16(sig.length),
      sig,
    ]);
    const list = Buffer.concat([u16(sct.length + 2), u16(sct.length), sct]);
    const final = await x509.X509CertificateGenerator.create({
      ...params,
      serialNumber: params.serialNumber,
      extensions: [...base, new x509.Extension(OID_SCT, false, derOctets(list))],
    });
    return Buffer.from(final.rawData);
  }

  /** Signs `blob` as `signer`: a fresh key and certificate, a log entry, and both bundle formats. */
  async function signBlob(blob: Buffer, signer: SignerIdentity): Promise<SignedBlob> {
    const leafKey = await keyPair();
    const cert = await leafCertificate(signer, leafKey);
    const signature = sign(leafKey.keys.privateKey, blob);
    const certPem = `-----BEGIN CERTIFICATE-----\n${cert.toString('base64').replace(/.{64}/g, '$&\n')}\n-----END CERTIFICATE-----\n`;
    const body = Buffer.from(
      canonicalJson.canonicalize({
        apiVersion: '0.0.1',
        kind: 'hashedrekord',
        spec: {
          data: { hash: { algorithm: 'sha256', value: sha256(blob).toString('hex') } },
          signature: {
            content: signature.toString('base64'),
            publicKey: { content: Buffer.from(certPem).toString('base64') },
          },
        },
      }),
    );
    const integratedTime = Math.floor(Date.now() / 1000) - 10;
    const index = logIndex++;
    const logId = sha256(rekor.spki);
    const payload = {
      body: body.toString('base64'),
      integratedTime,
      logIndex: index,
      logID: logId.toString('hex'),
    };
    const set = sign(rekor.keys.privateKey, Buffer.from(canonicalJson.canonicalize(payload)));
    const bundle = {
      mediaType: 'application/vnd.dev.sigstore.bundle+json;version=0.1',
      verificationMaterial: {
        x509CertificateChain: { certificates: [{ rawBytes: cert.toString('base64') }] },
        tlogEntries: [
          {
            logIndex: String(index),
            logId: { keyId: logId.toString('base64') },
            kindVersion: { kind: 'hashedrekord', version: '0.0.1' },
            integratedTime: String(integratedTime),
            inclusionPromise: { signedEntryTimestamp: set.toString('base64') },
            canonicalizedBody: body.toString('base64'),
          },
        ],
      },
      messageSignature: {
        messageDigest: { algorithm: 'SHA2_256', digest: sha256(blob).toString('base64') },
        signature: signature.toString('base64'),
      },
    };
    const legacyBundle = {
      base64Signature: signature.toString('base64'),
      cert: Buffer.from(certPem).toString('base64'),
      rekorBundle: { SignedEntryTimestamp: set.toString('base64'), Payload: payload },
    };
    return { bundle, legacyBundle };
  }

  return { trustedRoot, signBlob };
}
