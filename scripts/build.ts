// `npm run build`: emits JavaScript to dist/ (relative .ts imports rewritten to .js) so the published package
// runs on Node versions without type stripping; bundles bbdc into dist/bbdc/bbdc.cjs, which the checkout's
// bin/bbdc.js runs instead of the sources while none of them has changed (bin/start-up.js); and bundles the
// operator into dist/operator/realmforge.mjs, which the image runs (bin/realmforge.js picks it when there are no
// sources).
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { bundleOperator } from './operator-bundle.ts';
import { bundleForCheckout } from './release/bundle.ts';

const root = join(import.meta.dirname, '..');
rmSync(join(root, 'dist'), { recursive: true, force: true });
execFileSync(join(root, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.build.json'], {
  cwd: root,
  stdio: 'inherit',
});
console.log('built dist/');
await bundleForCheckout();
console.log('bundled bbdc into dist/bbdc/bbdc.cjs');
await bundleOperator();
console.log('bundled the operator into dist/operator/realmforge.mjs');
