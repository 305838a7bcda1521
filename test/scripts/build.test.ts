import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
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

test('the operator bundle, laid out as the image is (no node_modules), runs synth as the sources do and starts run; run loads neither synth, doctor nor client-node', async () => {
  // The Dockerfile's layout: package.json, bin, schemas and dist/operator, outside any node_modules tree.
  const image = mkdtempSync(join(tmpdir(), 'realmforge-image-'));
  const dir = join(image, 'dist', 'operator');
  const metafile = await bundleOperator(dir);
  for (const part of ['package.json', 'bin', 'schemas'])
    cpSync(join(root, part), join(image, part), { recursive: true });
  assert.is(operatorBundleEntry(dir), join(image, 'dist', 'operator', 'realmforge.mjs'));
  const args = ['synth', join(root, 'examples/identityserver-full.yaml')];
  const node = (argv: string[]) =>
    spawnSync(
      process.execPath,
      ['--no-experimental-strip-types', join(image, 'bin', 'realmforge.js'), ...argv],
      {
        cwd: image,
        encoding: 'utf8',
      },
    );
  const bundled = node(args);
  const source = spawnSync(process.execPath, [join(root, 'src/operator/cli/main.ts'), ...args], {
    cwd: root,
    encoding: 'utf8',
  });
  assert.is(bundled.status, 0, bundled.stderr);
  assert.is(bundled.stdout, source.stdout);
  // run loads all its chunks before it reads the kubeconfig: a missing one is its first and only complaint.
  const run = node(['run', '--kubeconfig', join(image, 'no-such-kubeconfig')]);
  assert.is(run.status, 2, run.stderr);
  assert.match(run.stderr, /^realmforge: cannot read the kubeconfig .*no-such-kubeconfig/);
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
  rmSync(image, { recursive: true, force: true });
});

test.run();
