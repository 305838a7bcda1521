// esbuild bundles of bbdc: an ES module package with code splitting for npm (each command stays a chunk that
// loads only when it runs), and one CommonJS file for the single-executable applications, which need one script.
import { readFileSync } from 'node:fs';
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

/** What a single executable is made of: its main script (the launcher) and the bundled bbdc it compiles. */
export type SeaScripts = { main: string; bundle: string };

/**
 * Bundles bbdc for a Node single-executable application: `bbdc.cjs`, everything in one script wrapped as a function
 * of (require, __filename, __dirname) and stored as an asset, and `main.cjs`, the launcher that answers --version
 * and --help itself and compiles the bundle for anything else. `prelude` is CommonJS code the launcher runs first
 * (the startup benchmark's rusage probe, since an executable ignores NODE_OPTIONS=--import).
 */
export async function bundleForSea(outDir: string, version: string, prelude = ''): Promise<SeaScripts> {
  const bundle = join(outDir, 'bbdc.cjs');
  const main = join(outDir, 'main.cjs');
  await build({
    absWorkingDir: root,
    entryPoints: [entry],
    outfile: bundle,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node22',
    external,
    minifySyntax: true,
    legalComments: 'none',
    // A CommonJS script has no import.meta; version.ts reads it.
    define: { BBDC_BUILD_VERSION: JSON.stringify(version), 'import.meta': '__bbdcImportMeta' },
    banner: {
      js: "(function (require, __filename, __dirname) { const module = { exports: {} }; const exports = module.exports; const __bbdcImportMeta = { url: require('node:url').pathToFileURL(__filename).href, dirname: __dirname, filename: __filename };",
    },
    footer: { js: '})' },
    logLevel: 'error',
  });
  const help = readFileSync(join(root, 'generated', 'bbdc', 'help.txt'), 'utf8');
  await build({
    absWorkingDir: root,
    entryPoints: [join(import.meta.dirname, 'sea-launcher.ts')],
    outfile: main,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node22',
    define: { BBDC_BUILD_VERSION: JSON.stringify(version), BBDC_HELP_TEXT: JSON.stringify(help) },
    banner: { js: prelude },
    logLevel: 'error',
  });
  return { main, bundle };
}
