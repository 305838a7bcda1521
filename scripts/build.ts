// `npm run build`: emits JavaScript to dist/ (relative .ts imports rewritten to .js) so the published package
// runs on Node versions without type stripping, and the operator's bundle dist/operator/realmforge.mjs, which
// the image runs (bin/realmforge.js picks it when there are no sources).
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
await bundleOperator();
console.log('built dist/ and dist/operator/realmforge.mjs');
