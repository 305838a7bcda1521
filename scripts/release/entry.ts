#!/usr/bin/env node
// The entry point of the bundled bbdc (the npm package and the standalone executables).
import module from 'node:module';
import { main } from '../../src/bbdc/main.ts';

try {
  module.enableCompileCache?.();
} catch {
  // a read-only or missing cache directory only costs startup time
}
main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
