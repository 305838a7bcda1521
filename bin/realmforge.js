#!/usr/bin/env node
// Runs the TypeScript sources directly (Node >= 22.18 strips types) in a checkout, the built dist/ when published.
import { existsSync } from 'node:fs';

const source = new URL('../src/operator/cli/main.ts', import.meta.url);
const { main } = await import(
  existsSync(source) ? source : new URL('../dist/src/operator/cli/main.js', import.meta.url)
);
process.exitCode = await main(process.argv.slice(2));
