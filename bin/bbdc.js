#!/usr/bin/env node
// bbdc: runs the TypeScript sources in a checkout, the compiled build when installed.
import { existsSync, readFileSync } from 'node:fs';
import module from 'node:module';

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
  module.enableCompileCache?.();
  const dev = new URL('../src/bbdc/main.ts', import.meta.url);
  const entry = existsSync(dev) ? dev : new URL('../dist/src/bbdc/main.js', import.meta.url);
  const { main } = await import(entry.href);
  process.exitCode = await main(args);
}
