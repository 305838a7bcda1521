#!/usr/bin/env node
// Runs the TypeScript sources directly (Node >= 22.18 strips types) in a checkout; when published (and in the
// image), the operator's bundle (dist/operator/realmforge.mjs, `npm run build`), else the tsc output.
import { existsSync } from 'node:fs';
import { requireNode } from './node-version.js';

requireNode('realmforge');

const candidates = [
  '../src/operator/cli/main.ts',
  '../dist/operator/realmforge.mjs',
  '../dist/src/operator/cli/main.js',
];
const entry = candidates.map((c) => new URL(c, import.meta.url)).find((u) => existsSync(u)) ?? candidates[2];
const { main } = await import(entry);
process.exitCode = await main(process.argv.slice(2));
