import { readFileSync } from 'node:fs';

// Set by the release bundler (esbuild `define`), where no package.json sits beside the code.
declare const BBDC_BUILD_VERSION: string | undefined;

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
