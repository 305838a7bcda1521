#!/bin/sh
':' //; exec node --min-semi-space-size=2 --max-semi-space-size=2 "$0" "$@"
// bbdc: runs the TypeScript sources in a checkout, the compiled build when installed. The two lines above are sh and
// JavaScript at once: /bin/sh (POSIX: every system bbdc runs on has one, Alpine's BusyBox included) reads `:` and
// runs node on this file with two V8 flags, and node reads a string and a comment. The flags fix V8's young
// generation at 2 MB: `pr get` from the bundle allocates about 1.05 MB, past the collection V8 starts at 80% of its
// default 1 MB, which cost 1.4-1.7 ms of CPU here (perf stat, 40 interleaved blocks of 10 runs; the executables,
// which allocate less before their first request, gained 0-0.6 ms and keep 1 MB semi-spaces for their memory:
// scripts/release/sea.ts cliV8Flags). Neither flag enters the hash V8 checks a code cache against, so a cache
// written here serves `node bin/bbdc.js` too. A `#!/usr/bin/env node` line cannot pass flags portably (`env -S` is
// GNU and BSD only), and a node that re-executed itself to add them would start twice; sh costs what env did.
// (biome.json leaves this file unformatted: the ';' it puts after the string would make sh run `//`.) `node
// bin/bbdc.js`, as on Windows, runs without the flags, and npm's Windows shims would run /bin/sh: the npm package's
// bin keeps `#!/usr/bin/env node`.
// CommonJS (bin/package.json), not an ES module: an ES module entry starts Node's ES module loader (an empty .mjs
// runs about 10 million instructions more than an empty .cjs) and resolves and links each import through it, which
// a command run from the bundle never needs. The sources, which are ES modules, still load through import().
'use strict';
const startUp = require('./start-up.js');
// First, before anything an older Node lacks (process.getBuiltinModule is 22.3+) is reached.
startUp.requireNode('bbdc');
const { cacheHome, commandOf, enableCompileCache, freshBundle, listName, runBundle, saveAtExit } = startUp;
// process.getBuiltinModule, like start-up.js (it says why).
const { existsSync, readFileSync } = process.getBuiltinModule('node:fs');

const args = process.argv.slice(2);
// Paths joined with '/', which Node's fs takes on every platform: path.join's normalize is compiled on its first
// call, about 0.3 ms of every start.
const root = process.getBuiltinModule('node:path').dirname(__dirname);
const version = () => JSON.parse(readFileSync(`${root}/package.json`, 'utf8')).version;
// `bbdc --help` as rendered by `npm run generate` (src/bbdc/cli/help.ts), when this checkout has it.
const help = `${root}/generated/bbdc/help.txt`;

/** Runs bbdc: from the bundle while it is fresh, else from the sources (checkout) or the build (installed). */
function start() {
  // A checkout runs its sources (TypeScript), or the bundle `npm run build` made of them while it is fresh: one
  // script instead of about 50 modules (7-14 ms less CPU for `pr get`). BBDC_CHECKOUT_BUNDLE=0
  // runs the sources even then (stack traces name the source files). An installed package runs its build.
  const cacheDir = cacheHome();
  const dev = existsSync(`${root}/src/bbdc/main.ts`);
  const bundled = dev && process.env.BBDC_CHECKOUT_BUNDLE !== '0';
  // A command that has a bundle of its own has a list beside it (bin/start-up.js freshBundle).
  const dist = `${root}/dist/bbdc`;
  const command = bundled ? commandOf(args, (c) => existsSync(`${dist}/inputs.${listName(c)}.json`)) : '';
  // The command's own bundle when it has one, else the whole one.
  const bundle = bundled && freshBundle(root, dist, command);
  if (bundle) {
    // With bbdc's own code cache, written at the end of the run (start-up.js compileCached says why). Node's compile
    // cache, for the npm packages the bundle requires, is turned on at the first of them: a command that needs none
    // (pr get) loads neither node:module nor Node's cache.
    const loaded = runBundle(bundle, cacheDir && `${cacheDir}/bundle`, command, () => {
      enableCompileCache(cacheDir);
      return process.getBuiltinModule('node:module').createRequire(bundle);
    });
    saveAtExit(loaded.save, args);
    return loaded.exports.main(args);
  }
  enableCompileCache(cacheDir);
  const entry = `${root}/${dev ? 'src/bbdc/main.ts' : 'dist/src/bbdc/main.js'}`;
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
