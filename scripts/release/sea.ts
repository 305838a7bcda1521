// Builds a Node single-executable application: a blob from the bundled script, injected into a copy of Node's binary.
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const SENTINEL_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

/**
 * Writes the preparation blob for `script` with `generator` (a Node binary of the same version as the target that
 * runs on this machine). V8's code cache (compiled bytecode, which saves parsing the whole bundle at every start)
 * is specific to the platform that made it, so `codeCache` is only for a blob injected into the generator's own
 * kind of binary; other targets get a portable blob without it.
 */
export function makeBlob(
  generator: string,
  script: string,
  workDir: string,
  options: { codeCache?: boolean } = {},
): string {
  const blob = join(workDir, 'sea-prep.blob');
  const config = join(workDir, 'sea-config.json');
  writeFileSync(
    config,
    JSON.stringify({
      main: script,
      output: blob,
      disableExperimentalSEAWarning: true,
      useSnapshot: false,
      useCodeCache: options.codeCache === true,
    }),
  );
  rmSync(blob, { force: true });
  execFileSync(generator, ['--experimental-sea-config', config], { cwd: workDir, stdio: 'pipe' });
  return blob;
}

/** Copies `nodeBinary` to `output` and injects the blob with postject (Mach-O needs the NODE_SEA segment). */
export async function injectBlob(
  nodeBinary: string,
  blob: string,
  output: string,
  os: string,
): Promise<void> {
  copyFileSync(nodeBinary, output);
  chmodSync(output, 0o755);
  // postject ships no type declarations.
  const { inject } = createRequire(import.meta.url)('postject') as {
    inject(file: string, name: string, data: Buffer, options: object): Promise<void>;
  };
  await inject(output, 'NODE_SEA_BLOB', readFileSync(blob), {
    sentinelFuse: SENTINEL_FUSE,
    ...(os === 'darwin' ? { machoSegmentName: 'NODE_SEA' } : {}),
  });
}
