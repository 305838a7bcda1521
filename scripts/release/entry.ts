#!/usr/bin/env node
// The entry point of the bundled bbdc (the npm package and the standalone executables). No node flags on the line
// above, as on bin/bbdc.js's: `env -S` fails on Alpine's BusyBox (release-build.test.ts checks the published line).
import { enableCompileCache } from '../../bin/start-up.js';
import { main } from '../../src/bbdc/main.ts';

enableCompileCache();
main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
