import semver from 'semver';
import { RealmforgeError } from '../../core/errors.ts';
import { extractFile } from './archive.ts';
import { parseChecksums, sha256Hex, verifyChecksum } from './checksums.ts';
import type { SelfUpdateEnv } from './environment.ts';
import {
  archiveName,
  assetUrl,
  checksumsBundleName,
  checksumsName,
  download,
  executableName,
  latestMetadataUrl,
  type ReleaseMetadata,
} from './release-source.ts';
import { replaceExecutable } from './replace-executable.ts';
import { type VerifiedSigner, verifySignature } from './verify-signature.ts';
import { stageWindowsSwap } from './windows-swap.ts';

/** Where releases come from and how long one download may take. */
/** Where releases are read: base URL, per-request timeout, and the environment with the proxy settings. */
export type ReleaseSource = {
  baseUrl: string;
  timeoutMs: number;
  env?: Readonly<Record<string, string | undefined>>;
};

/** The installed and latest versions, and the archive this platform would get. */
export type UpdateCheck = {
  current: string;
  latest: string;
  newer: boolean;
  archive: string;
  archiveUrl: string;
};

/** Reads `release.json` of the latest release and compares its version with the installed one (semver). */
export async function checkForUpdate(env: SelfUpdateEnv, source: ReleaseSource): Promise<UpdateCheck> {
  const url = latestMetadataUrl(source.baseUrl);
  const text = (await download(url, 'the latest release metadata (release.json)', source)).toString('utf8');
  let metadata: Partial<ReleaseMetadata>;
  try {
    metadata = JSON.parse(text);
  } catch {
    throw new RealmforgeError('validation', `${url} is not JSON; is BBDC_RELEASE_URL a bbdc release page?`);
  }
  const latest = semver.valid(String(metadata.version ?? '').replace(/^v/, ''));
  if (metadata.name !== 'bbdc' || !latest) {
    throw new RealmforgeError(
      'validation',
      `${url} does not describe a bbdc release (expected {"name":"bbdc","version":"MAJOR.MINOR.PATCH"})`,
    );
  }
  const current = semver.valid(env.currentVersion) ?? '0.0.0';
  const archive = archiveName(env.platform, env.arch);
  return {
    current: env.currentVersion,
    latest,
    newer: semver.gt(latest, current),
    archive,
    archiveUrl: assetUrl(source.baseUrl, latest, archive),
  };
}

/** Downloads `sha256sums.txt` and its bundle and verifies the signature; returns the checksums and the signer. */
export async function verifiedChecksums(env: SelfUpdateEnv, source: ReleaseSource, version: string) {
  const [sumsBytes, bundle] = await Promise.all([
    download(assetUrl(source.baseUrl, version, checksumsName), `${checksumsName} of v${version}`, source),
    download(
      assetUrl(source.baseUrl, version, checksumsBundleName),
      `the signature bundle ${checksumsBundleName} of v${version} (a release without one is never installed)`,
      source,
    ).catch((error) => {
      if (error instanceof RealmforgeError && error.kind === 'not_found') {
        throw new RealmforgeError('validation', `${error.message}; refusing to update, nothing was changed`);
      }
      throw error;
    }),
  ]);
  const signer = await verifySignature(
    bundle.toString('utf8'),
    sumsBytes,
    await env.trust.trustedRoot(),
    env.trust.signer(version),
    checksumsBundleName,
  );
  return { sums: parseChecksums(sumsBytes.toString('utf8')), signer };
}

/** What an update did. */
export type UpdateOutcome = {
  status: 'updated' | 'staged';
  executable: string;
  sha256: string;
  signer: VerifiedSigner;
};

/** Downloads, verifies and installs the release `check` found: replaced in place, or staged on Windows. */
export async function installUpdate(
  env: SelfUpdateEnv,
  source: ReleaseSource,
  check: UpdateCheck,
): Promise<UpdateOutcome> {
  const { sums, signer } = await verifiedChecksums(env, source, check.latest);
  const archive = await download(check.archiveUrl, check.archive, source);
  verifyChecksum(sums, check.archive, archive);
  const binary = await extractFile(archive, executableName(env.platform), check.archive);
  const target = env.executablePath;
  if (env.platform === 'win32') {
    await stageWindowsSwap(target, binary, env.pid, env.files, env.startDetached);
    return { status: 'staged', executable: target, sha256: sha256Hex(archive), signer };
  }
  await replaceExecutable(target, binary, env.files, async (path) => {
    const res = await env.runExecutable(path, ['--version']);
    if (res.code !== 0 || !res.stdout.includes(check.latest)) {
      throw new Error(
        `\`${path} --version\` exited ${res.code} and printed "${res.stdout.trim()}", not version ${check.latest}${res.stderr ? ` (${res.stderr.trim()})` : ''}`,
      );
    }
  });
  return { status: 'updated', executable: target, sha256: sha256Hex(archive), signer };
}
