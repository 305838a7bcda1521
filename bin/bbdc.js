#!/usr/bin/env node
// bbdc: runs the TypeScript sources in a checkout, the compiled build when installed. The line above takes no node
// flags: `env -S` is GNU and BSD only (BusyBox's env on Alpine, OpenBSD's and NetBSD's refuse it, so bbdc would not
// start there), and re-executing node to add them would double the start. Only the single executables get V8 flags,
// from their execArgv (scripts/release/sea.ts cliV8Flags).
import { requireNode } from './node-version.js';
import { commandWords, runBundle } from './run-bundle.js';
import { enableCompileCache, freshBundle } from './start-up.js';

// process.getBuiltinModule, not ES imports: an ES import of a Node module reads every export, and node:fs's
// ReadStream getter loads Node's whole stream stack (internal/fs/streams, readline), about 4 ms.
const { existsSync, readFileSync } = process.getBuiltinModule('node:fs');
const { join } = process.getBuiltinModule('node:path');
const { fileURLToPath, pathToFileURL } = process.getBuiltinModule('node:url');

requireNode('bbdc');
const args = process.argv.slice(2);
const version = () => JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version;
// `bbdc --help` as rendered by `npm run generate` (src/bbdc/cli/help.ts), when this checkout has it.
const help = new URL('../generated/bbdc/help.txt', import.meta.url);
if (args.length === 1 && args[0] === '--version') {
  // Answered here so `bbdc --version` loads no TypeScript and no dependencies.
  process.stdout.write(`bbdc ${version()}\n`);
} else if (
  (args.length === 0 || (args.length === 1 && ['--help', '-h'].includes(args[0]))) &&
  existsSync(help)
) {
  // The same for `bbdc --help`: the text is generated from the registry (check:generated keeps it current).
  process.stdout.write(readFileSync(help, 'utf8').replace('{{version}}', version()));
} else {
  // A checkout runs its sources (TypeScript), or the bundle `npm run build` made of them while it is fresh: one
  // JavaScript file instead of about 50 modules (7-14 ms less CPU for `pr get`). BBDC_CHECKOUT_BUNDLE=0
  // runs the sources even then (stack traces name the source files). An installed package runs its build.
  const cacheDir = enableCompileCache();
  const root = fileURLToPath(new URL('..', import.meta.url));
  const dev = existsSync(join(root, 'src', 'bbdc', 'main.ts'));
  const command = commandWords(args);
  // The bundle of the command's group when there is one (its first word: `pr` of `pr get`), else the whole one.
  const bundle =
    dev && process.env.BBDC_CHECKOUT_BUNDLE !== '0' && freshBundle(root, undefined, command.split(' ')[0]);
  let main;
  if (bundle && cacheDir && process.env.NODE_DISABLE_COMPILE_CACHE !== '1') {
    // With bbdc's own code cache, written at the end of the run (run-bundle.js says why).
    const loaded = runBundle(bundle, join(cacheDir, 'bundle'), command);
    process.once('exit', loaded.save);
    main = loaded.exports.main;
  } else if (bundle) {
    // process.getBuiltinModule: an ES import of node:module reads all its exports (5 ms)
    main = process.getBuiltinModule('node:module').createRequire(import.meta.url)(bundle).main;
  } else {
    const entry = join(root, dev ? 'src/bbdc/main.ts' : 'dist/src/bbdc/main.js');
    main = (await import(pathToFileURL(entry).href)).main;
  }
  process.exitCode = await main(args);
}
