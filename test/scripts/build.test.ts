import { execFileSync, spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const root = join(import.meta.dirname, '..', '..');
const out = join(root, '.tmp', 'build-test');

test('the JavaScript build runs synth without type stripping and prints what the sources print', () => {
  rmSync(out, { recursive: true, force: true });
  execFileSync(join(root, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.build.json', '--outDir', out], {
    cwd: root,
  });
  const args = ['synth', 'examples/identityserver-full.yaml'];
  const built = spawnSync(
    process.execPath,
    ['--no-experimental-strip-types', join(out, 'src/operator/cli/main.js'), ...args],
    {
      cwd: root,
      encoding: 'utf8',
    },
  );
  const source = spawnSync(process.execPath, [join(root, 'src/operator/cli/main.ts'), ...args], {
    cwd: root,
    encoding: 'utf8',
  });
  assert.is(built.status, 0, built.stderr);
  assert.ok(built.stdout.length > 1000);
  assert.is(built.stdout, source.stdout);
  rmSync(out, { recursive: true, force: true });
});

test.run();
