import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// Set by the release bundler (esbuild `define`), where no package.json sits beside the code.
declare const BBDC_BUILD_VERSION: string | undefined;
declare const BBDC_BUILD_COMMIT: string | undefined;

/** The bbdc version from package.json, found from the sources (src/bbdc) or the build (dist/src/bbdc). */
export function readVersion(): string {
  if (typeof BBDC_BUILD_VERSION === 'string') return BBDC_BUILD_VERSION;
  for (const rel of ['../../package.json', '../../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(rel, import.meta.url), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === 'realmforge' && pkg.version) return pkg.version;
    } catch {
      // try the next layout
    }
  }
  return '0.0.0-unknown';
}

/**
 * The git checkout bbdc runs from (a clone of the repository, not an installed package): the directory above the
 * sources holding realmforge's package.json and a .git; undefined for a release build or an npm installation.
 */
export function checkoutDir(): string | undefined {
  if (typeof BBDC_BUILD_VERSION === 'string' || !import.meta.url) return undefined;
  for (let dir = dirname(fileURLToPath(import.meta.url)); dir !== dirname(dir); dir = dirname(dir)) {
    if (!existsSync(join(dir, 'package.json'))) continue;
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string };
      return pkg.name === 'realmforge' && existsSync(join(dir, '.git')) ? dir : undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** What `bbdc --version` prints: the version and the commit it was built from (a checkout's HEAD, read by git). */
export async function versionLine(
  git: (args: string[], cwd: string) => Promise<{ code: number; stdout: string }>,
): Promise<string> {
  if (typeof BBDC_BUILD_COMMIT === 'string') return `bbdc ${readVersion()} (commit ${BBDC_BUILD_COMMIT})`;
  const dir = checkoutDir();
  const head = dir ? await git(['rev-parse', 'HEAD'], dir) : undefined;
  const commit = head?.code === 0 ? head.stdout.trim() : undefined;
  return `bbdc ${readVersion()}${commit ? ` (commit ${commit}, checkout ${dir})` : ''}`;
}
