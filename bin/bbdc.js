#!/usr/bin/env node
// bbdc: runs the TypeScript sources in a checkout, the compiled build when installed.
import { existsSync, readFileSync } from 'node:fs';
import module from 'node:module';

const args = process.argv.slice(2);
if (args.length === 1 && args[0] === '--version') {
  // Answered here so `bbdc --version` loads no TypeScript and no dependencies.
  const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  process.stdout.write(`bbdc ${version}\n`);
} else {
  module.enableCompileCache?.();
  const dev = new URL('../src/bbdc/main.ts', import.meta.url);
  const entry = existsSync(dev) ? dev : new URL('../dist/src/bbdc/main.js', import.meta.url);
  const { main } = await import(entry.href);
  process.exitCode = await main(args);
}
