#!/usr/bin/env node
// bbdc from a checkout or an `npm link` of it: the TypeScript sources, with Node's module compile cache.
import { start } from './start.js';

start('bbdc', ['src/bbdc/main.ts', 'dist/src/bbdc/main.js'], { compileCache: true });
