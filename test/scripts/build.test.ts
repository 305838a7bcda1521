import { execFileSync, spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { bundleOperator, inputsLoadedBy, operatorBundleEntry } from '../../scripts/operator-bundle.ts';

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

test('the operator bundle runs synth as the sources do; run loads neither synth, doctor nor client-node', async () => {
  const dir = join(root, '.tmp', 'bundle-test');
  rmSync(dir, { recursive: true, force: true });
  const metafile = await bundleOperator(dir);
  const args = ['synth', 'examples/identityserver-full.yaml'];
  const bundled = spawnSync(
    process.execPath,
    ['--no-experimental-strip-types', operatorBundleEntry(dir), ...args],
    { cwd: root, encoding: 'utf8' },
  );
  const source = spawnSync(process.execPath, [join(root, 'src/operator/cli/main.ts'), ...args], {
    cwd: root,
    encoding: 'utf8',
  });
  assert.is(bundled.status, 0, bundled.stderr);
  assert.is(bundled.stdout, source.stdout);
  const runChunk = Object.keys(metafile.outputs).find((o) => /chunks\/run-command-[^/]+\.mjs$/.test(o));
  assert.ok(runChunk, 'run is a chunk of its own');
  const loaded = [...inputsLoadedBy(metafile, runChunk as string)];
  assert.ok(loaded.some((i) => i.includes('src/operator/controllers/identity-client/')));
  for (const absent of [
    'node_modules/ajv/',
    'node_modules/@bufbuild/cel',
    'src/operator/doctor/',
    '@kubernetes/client-node',
  ])
    assert.not.ok(
      loaded.some((i) => i.includes(absent)),
      `run loads ${absent}`,
    );
  rmSync(dir, { recursive: true, force: true });
});

test.run();
