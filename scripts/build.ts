// `npm run build`: emits JavaScript to dist/ (relative .ts imports rewritten to .js), which an installed copy of the
// package runs (bin/start.js), and bundles the operator into dist/operator/realmforge.mjs, which the image runs.
// The checkout runs its TypeScript sources; bbdc's npm package and executables are `npm run release:build`'s.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { bundleOperator } from './operator-bundle.ts';

const root = join(import.meta.dirname, '..');
rmSync(join(root, 'dist'), { recursive: true, force: true });
execFileSync(join(root, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.build.json'], {
  cwd: root,
  stdio: 'inherit',
});
console.log('built dist/');
await bundleOperator();
console.log('bundled the operator into dist/operator/realmforge.mjs');
