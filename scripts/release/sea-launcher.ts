// The main script of the bbdc single executable. `--version` and `--help` are answered from constants, so they
// cost what a bare Node start costs; anything else compiles bbdc's code (the asset bbdc.cjs) and, when a command
// first requires an npm package, the packages (bbdc.packages.cjs; bundle.ts bundleForSea says why two scripts), each
// with the V8 code cache made at build time when it matches this binary (V8 refuses a foreign cache; bbdc then
// compiles without it).
import { join } from 'node:path';
import { getRawAsset } from 'node:sea';
import { Script } from 'node:vm';
import { bundleRequire, cacheHome, commandWords, compileCached } from '../../bin/start-up.js';

declare const BBDC_BUILD_VERSION: string;
declare const BBDC_HELP_TEXT: string;

type Bundle = (require: (id: string) => unknown, filename: string, dirname: string) => unknown;

const args = process.argv.slice(2);
if (args.length === 1 && args[0] === '--version') {
  process.stdout.write(`bbdc ${BBDC_BUILD_VERSION}\n`);
} else if (args.length === 0 || (args.length === 1 && (args[0] === '--help' || args[0] === '-h'))) {
  process.stdout.write(BBDC_HELP_TEXT.replace('{{version}}', BBDC_BUILD_VERSION));
} else {
  const command = commandWords(args);
  // The same cache home as the checkout's (start-up.js cacheHome); none without a home directory.
  const home = cacheHome();
  const cacheDir = home && join(home, 'executable');
  const dirname = process.execPath.replace(/[\\/][^\\/]*$/, '');
  /** Compiles the asset `name` (a bundle of bundle.ts bundleForSea) and runs it with `req`: its exports. */
  const run = (name: string, req: (id: string) => unknown) => {
    let fallback: Buffer | undefined;
    try {
      // getRawAsset, not getAsset: the executable's own bytes, not a copy (V8 only reads a cache).
      fallback = Buffer.from(getRawAsset(name.replace(/\.cjs$/, '.cache')));
    } catch {
      // built without a code cache (another platform's executable)
    }
    // esbuild writes ASCII (its default charset): latin1 reads the bytes as they are, into a string Node keeps
    // outside V8's heap when over 1 MB.
    const source = Buffer.from(getRawAsset(name)).toString('latin1');
    // The build's cache holds only the bundle's top level; the user's (bin/start-up.js compileCached) gets the
    // functions each command runs, written at the end of a run, beside the checkout's.
    const { script, save } =
      !cacheDir || process.env.NODE_DISABLE_COMPILE_CACHE === '1'
        ? { script: new Script(source, { filename: name, cachedData: fallback }), save: () => false }
        : compileCached({
            source,
            filename: name,
            key: `${name}-${BBDC_BUILD_VERSION}-${process.version}-${process.arch}-${source.length}`,
            // Each script's caches are named after it: one's save keeps the other's.
            family: `${name}-`,
            cacheDir,
            command,
            fallback,
          });
    process.once('exit', save);
    return (script.runInThisContext() as Bundle)(req, process.execPath, dirname);
  };
  // bbdc's require (start-up.js bundleRequire): a package from bbdc.packages.cjs, compiled on the first one.
  const bbdcRequire = bundleRequire(() => {
    const packages = run('bbdc.packages.cjs', require) as Record<string, () => unknown>;
    // A package the executable lacks (the keyring addon): Node's error.
    return (id) => (Object.hasOwn(packages, id) ? packages[id]() : require(id));
  });
  run('bbdc.cjs', bbdcRequire);
}
