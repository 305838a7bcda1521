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
      `bbdc releases have no executable for ${platform}-${arch}; install with npm instead (npm install -g @realmforge/bbdc)`,
    );
  }
  return `bbdc-${os}-${arch}.tar.gz`;
}

/** The executable's name inside the archive. */
export const executableName = (platform: string) => (platform === 'win32' ? 'bbdc.exe' : 'bbdc');

/** Downloads one file over bbdc's HTTP transport (so HTTPS_PROXY/NO_PROXY apply), following up to 5 redirects (release
 * assets redirect to a storage host); a 404 is not_found, a network failure transient, each naming what and where. */
export async function download(
  url: string,
  what: string,
  source: { timeoutMs: number; env?: Readonly<Record<string, string | undefined>> },
): Promise<Buffer> {
  const { createHttpTransport } = await import('../api/transport.ts');
  const transport = createHttpTransport({ insecure: false, timeoutMs: source.timeoutMs, env: source.env });
  try {
    let target = url;
    for (let hop = 0; ; hop++) {
      let res: Awaited<ReturnType<typeof transport.exchange>>;
      try {
        res = await transport.exchange({ method: 'GET', url: target, headers: { accept: '*/*' } });
      } catch (error) {
        throw new RealmforgeError(
          'transient',
          `could not download ${what} from ${target}: ${(error as Error).message}`,
          {
            cause: error,
          },
        );
      }
      const location = res.headers.location;
      if (res.status >= 300 && res.status < 400 && location && hop < 5) {
        target = new URL(location, target).href;
        continue;
      }
      if (res.status === 404)
        throw new RealmforgeError('not_found', `${what} is missing: ${target} answered 404`);
      if (res.status < 200 || res.status >= 300) {
        throw new RealmforgeError(
          res.status >= 500 ? 'transient' : 'internal',
          `could not download ${what}: ${target} answered ${res.status}`,
        );
      }
      return res.body;
    }
  } finally {
    await transport.close();
  }
}
