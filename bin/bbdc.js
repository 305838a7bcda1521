#!/usr/bin/env node
// bbdc: runs the TypeScript sources in a checkout, the compiled build when installed.
import { existsSync } from 'node:fs';

const dev = new URL('../src/bbdc/main.ts', import.meta.url);
const entry = existsSync(dev) ? dev : new URL('../dist/src/bbdc/main.js', import.meta.url);
const { main } = await import(entry.href);
process.exitCode = await main(process.argv.slice(2));
