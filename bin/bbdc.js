#!/usr/bin/env node
// bbdc: runs the TypeScript sources in a checkout, the compiled build when installed. The line above takes no node
// flags: `env -S` is GNU and BSD only (BusyBox's env on Alpine, OpenBSD's and NetBSD's refuse it, so bbdc would not
// start there), and re-executing node to add them would double the start. Only the single executables get V8 flags,
// from their execArgv (scripts/release/sea.ts cliV8Flags).
// CommonJS (bin/package.json), not an ES module: an ES module entry starts Node's ES module loader and resolves, links
// and compiles each of bin/'s modules through it, which a command run from the bundle never needs (pr get from the
// checkout's bundle: 189 -> 175 million instructions, 51 -> 47 ms of CPU, the bench's probe loaded in both). The
// sources, which are ES modules, still load through import().
'use strict';
// First, before anything an older Node lacks (process.getBuiltinModule is 22.3+) is reached.
require('./node-version.js').requireNode('bbdc');
const { commandWords, runBundle } = require('./run-bundle.js');
const { enableCompileCache, freshBundle } = require('./start-up.js');

// process.getBuiltinModule, like the modules above (start-up.js says why).
const { existsSync, readFileSync } = process.getBuiltinModule('node:fs');
const { join } = process.getBuiltinModule('node:path');

const args = process.argv.slice(2);
const root = join(__dirname, '..');
const version = () => JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
// `bbdc --help` as rendered by `npm run generate` (src/bbdc/cli/help.ts), when this checkout has it.
const help = join(root, 'generated', 'bbdc', 'help.txt');

/** Runs bbdc: from the bundle while it is fresh, else from the sources (checkout) or the build (installed). */
function start() {
  // A checkout runs its sources (TypeScript), or the bundle `npm run build` made of them while it is fresh: one
  // JavaScript file instead of about 50 modules (7-14 ms less CPU for `pr get`). BBDC_CHECKOUT_BUNDLE=0
  // runs the sources even then (stack traces name the source files). An installed package runs its build.
  const cacheDir = enableCompileCache();
  const dev = existsSync(join(root, 'src', 'bbdc', 'main.ts'));
  const command = commandWords(args);
  // The bundle of the command's group when there is one (its first word: `pr` of `pr get`), else the whole one.
  const bundle =
    dev &&
    process.env.BBDC_CHECKOUT_BUNDLE !== '0' &&
    freshBundle(root, undefined, command.split(' ')[0], command);
  if (bundle && cacheDir && process.env.NODE_DISABLE_COMPILE_CACHE !== '1') {
    // With bbdc's own code cache, written at the end of the run (run-bundle.js says why).
    const loaded = runBundle(bundle, join(cacheDir, 'bundle'), command);
    process.once('exit', loaded.save);
    return loaded.exports.main(args);
  }
  if (bundle) return require(bundle).main(args);
  const entry = join(root, dev ? 'src/bbdc/main.ts' : 'dist/src/bbdc/main.js');
  return import(process.getBuiltinModule('node:url').pathToFileURL(entry).href).then((m) => m.main(args));
}

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
  start().then((code) => {
    process.exitCode = code;
  });
}
