// esbuild bundles of bbdc: an ES module package with code splitting for npm (each command stays a chunk that
// loads only when it runs), and one CommonJS file for the single-executable applications, which need one script.
import { join } from 'node:path';
import { build } from 'esbuild';

const root = join(import.meta.dirname, '..', '..');
const entry = join(import.meta.dirname, 'entry.ts');
// The OS keyring binding is a native addon: the npm package depends on it, the executables use the file store.
const external = ['@napi-rs/keyring'];

/** Bundles the npm package's code into `outdir` (entry `bbdc.mjs` and its chunks). */
export async function bundleForNpm(outdir: string, version: string): Promise<void> {
  await build({
    absWorkingDir: root,
    entryPoints: { bbdc: entry },
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunks/[name]-[hash]',
    external,
    minifySyntax: true,
    legalComments: 'linked',
    define: { BBDC_BUILD_VERSION: JSON.stringify(version) },
    // Some bundled dependencies are CommonJS and call require() for Node's built-in modules.
    banner: {
      js: "import { createRequire as __bbdcCreateRequire } from 'node:module'; const require = __bbdcCreateRequire(import.meta.url);",
    },
    logLevel: 'warning',
  });
}

/**
 * Bundles everything into one CommonJS script for a Node single-executable application; `prelude` is CommonJS code
 * run before it (the startup benchmark's rusage probe, since an executable ignores NODE_OPTIONS=--import).
 */
export async function bundleForSea(outfile: string, version: string, prelude = ''): Promise<void> {
  await build({
    absWorkingDir: root,
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node22',
    external,
    minifySyntax: true,
    legalComments: 'none',
    // A CommonJS script has no import.meta; meow and version.ts read it.
    define: { BBDC_BUILD_VERSION: JSON.stringify(version), 'import.meta': '__bbdcImportMeta' },
    banner: {
      js: `${prelude}const __bbdcImportMeta = { url: require('node:url').pathToFileURL(__filename).href, dirname: __dirname, filename: __filename };`,
    },
    logLevel: 'error',
  });
}
