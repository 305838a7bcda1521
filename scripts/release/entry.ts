#!/usr/bin/env -S node --max-semi-space-size=1
// The entry point of the bundled bbdc (the npm package and the standalone executables). The npm package's bin runs
// with the V8 flags of bin/bbdc.js's shebang line (scripts/release/sea.ts cliV8Flags; release-build.test.ts checks).
import { enableCompileCache } from '../../bin/start-up.js';
import { main } from '../../src/bbdc/main.ts';

enableCompileCache();
main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
