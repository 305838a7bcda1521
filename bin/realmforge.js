#!/usr/bin/env node
// Runs the TypeScript sources directly (Node >= 22.18 strips types) in a checkout; when published (and in the
// image), the operator's bundle (dist/operator/realmforge.mjs, `npm run build`), else the tsc output. CommonJS like
// the rest of bin/ (bin/package.json); the operator itself is ES modules, loaded with import().
'use strict';
require('./start-up.js').requireNode('realmforge');
const { existsSync } = require('node:fs');
const { join } = require('node:path');
const { pathToFileURL } = require('node:url');

const candidates = [
  '../src/operator/cli/main.ts',
  '../dist/operator/realmforge.mjs',
  '../dist/src/operator/cli/main.js',
].map((c) => join(__dirname, c));
const entry = candidates.find((f) => existsSync(f)) ?? candidates[2];
import(pathToFileURL(entry).href)
  .then(({ main }) => main(process.argv.slice(2)))
  .then((code) => {
    process.exitCode = code;
  });
