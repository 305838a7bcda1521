// Builds a Node single-executable application: a blob from the bundled script, injected into a copy of Node's binary.
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, join } from 'node:path';
import type { Bundles } from './bundle.ts';

/**
 * The V8 flags the single executables run with (their execArgv): small semi-spaces keep a long list's peak memory
 * lower at the same CPU.
 */
export const cliV8Flags = ['--max-semi-space-size=1'];

const SENTINEL_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

/**
 * Writes the preparation blob for the launcher and its scripts (each an asset named after its file) with `generator`
 * (a Node binary of the target's version that runs on this machine). With `codeCache` (a target of the generator's
 * own platform: V8's code cache is specific to it) each script gets V8's code cache beside it (`bbdc-pr.cjs.cache`),
 * made by the generator from the same text under the same name as launcher.ts compiles it; the cache and its script
 * are built together and never change apart.
 */
export function makeBlob(
  generator: string,
  bundles: Bundles,
  workDir: string,
  options: { codeCache?: boolean } = {},
): string {
  const blob = join(workDir, 'sea-prep.blob');
  const config = join(workDir, 'sea-config.json');
  const assets: Record<string, string> = {};
  for (const script of bundles.scripts) assets[basename(script)] = script;
  if (options.codeCache) {
    const caches = bundles.scripts.map((s) => [s, join(workDir, `${basename(s)}.cache`)]);
    const make = `const { Script } = require('node:vm'); const fs = require('node:fs'); const path = require('node:path');
      for (let i = 1; i < process.argv.length; i += 2) {
        const script = new Script(fs.readFileSync(process.argv[i], 'utf8'), { filename: path.basename(process.argv[i]) });
        fs.writeFileSync(process.argv[i + 1], script.createCachedData());
      }`;
    execFileSync(generator, ['-e', make, ...caches.flat()], { stdio: 'pipe' });
    for (const [, cache] of caches) assets[basename(cache)] = cache;
  }
  writeFileSync(
    config,
    JSON.stringify({
      main: bundles.main,
      output: blob,
      disableExperimentalSEAWarning: true,
      useSnapshot: false,
      useCodeCache: false,
      execArgv: cliV8Flags,
      assets,
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
