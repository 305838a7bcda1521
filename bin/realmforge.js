#!/usr/bin/env node
// realmforge from a checkout (the TypeScript sources), the image (the operator's bundle, `npm run build`) or an
// installed package (the JavaScript build).
import { start } from './start.js';

start('realmforge', [
  'src/operator/cli/main.ts',
  'dist/operator/realmforge.mjs',
  'dist/src/operator/cli/main.js',
]);
