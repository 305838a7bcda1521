import { RealmforgeError, UsageError } from '../../core/errors.ts';

/** Where bbdc's releases live unless BBDC_RELEASE_URL says otherwise (a GitHub releases page or a mirror of it). */
export const defaultReleaseUrl = 'https://github.com/realmforge/realmforge/releases';

/** The latest release's metadata, as `release.json` in every release describes it. */
export type ReleaseMetadata = { name: 'bbdc'; version: string };

/** The release base URL: BBDC_RELEASE_URL (http or https, no trailing slash) or the default. */
export function releaseBaseUrl(env: Readonly<Record<string, string | undefined>>): string {
  const raw = env.BBDC_RELEASE_URL?.trim();
  if (!raw) return defaultReleaseUrl;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`BBDC_RELEASE_URL "${raw}" is not a URL; set it to e.g. ${defaultReleaseUrl}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UsageError(`BBDC_RELEASE_URL must be an http(s) URL, not ${url.protocol}`);
  }
  return raw.replace(/\/+$/, '');
}

/** The metadata of the newest release, GitHub's `latest/download` layout. */
export const latestMetadataUrl = (base: string) => `${base}/latest/download/release.json`;

/** One file of a release, GitHub's `download/<tag>` layout. */
export const assetUrl = (base: string, version: string, name: string) =>
  `${base}/download/v${version}/${name}`;

/** The checksum file every release carries, and its Sigstore bundle. */
export const checksumsName = 'sha256sums.txt';
export const checksumsBundleName = 'sha256sums.txt.sigstore.json';

const osNames: Record<string, string> = { linux: 'linux', darwin: 'darwin', win32: 'win' };

/** The archive for a platform, e.g. `bbdc-linux-x64.tar.gz`; throws when releases have none for it. */
export function archiveName(platform: string, arch: string): string {
  const os = osNames[platform];
  if (!os || (arch !== 'x64' && arch !== 'arm64')) {
    throw new RealmforgeError(
      'not_implemented',
      `bbdc releases have no executable for ${platform}-${arch}; install with npm instead (npm install -g realmforge)`,
    );
  }
  return `bbdc-${os}-${arch}.tar.gz`;
}

/** The executable's name inside the archive. */
export const executableName = (platform: string) => (platform === 'win32' ? 'bbdc.exe' : 'bbdc');

/** Downloads one file; a 404 is not_found, a network failure transient, each naming what and where. */
export async function download(url: string, what: string, timeoutMs: number): Promise<Buffer> {
  let res: Response;
  try {
    res = await fetch(url, { redirect: 'follow', signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    throw new RealmforgeError(
      'transient',
      `could not download ${what} from ${url}: ${(error as Error).cause ?? (error as Error).message}`,
      { cause: error },
    );
  }
  if (res.status === 404) {
    await res.body?.cancel();
    throw new RealmforgeError('not_found', `${what} is missing: ${url} answered 404`);
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw new RealmforgeError(
      res.status >= 500 ? 'transient' : 'internal',
      `could not download ${what}: ${url} answered ${res.status}`,
    );
  }
  return Buffer.from(await res.arrayBuffer());
}
