#!/usr/bin/env node
// The entry point of the bundled bbdc (the npm package and the standalone executables).
import { enableCompileCache } from '../../bin/start-up.js';
import { main } from '../../src/bbdc/main.ts';

enableCompileCache();
main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
