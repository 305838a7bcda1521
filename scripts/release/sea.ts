// Builds a Node single-executable application: a blob from the bundled script, injected into a copy of Node's binary.
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, join } from 'node:path';
import type { SeaScripts } from './bundle.ts';

/**
 * The V8 flags the single executables run with (their execArgv): 1 MB semi-spaces (instead of up to 16 MB) keep
 * `repo list --limit 5000` 3-4 MB smaller at the same CPU. The checkout's bin/bbdc.js gives node its own (it says
 * why); the npm package runs without: its bin's first line must be `#!/usr/bin/env node` for npm's Windows shims,
 * and a flagged one needs `env -S`, which BusyBox (Alpine) lacks.
 */
export const cliV8Flags = ['--max-semi-space-size=1'];

const SENTINEL_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

/**
 * Writes the preparation blob for the launcher and its scripts (each an asset named after its file) with `generator`
 * (a Node binary of the same version as the target that runs on this machine). With `codeCache` (for a target of the
 * generator's own platform: V8's cache is specific to it) the generator also compiles each script once and stores
 * V8's code cache beside it (`bbdc.cjs`'s as `bbdc.cache`), which saves parsing the whole script at a command's
 * first start; elsewhere the executable compiles without it.
 */
export function makeBlob(
  generator: string,
  scripts: SeaScripts,
  workDir: string,
  options: { codeCache?: boolean } = {},
): string {
  const blob = join(workDir, 'sea-prep.blob');
  const config = join(workDir, 'sea-config.json');
  const assets: Record<string, string> = {};
  const bundles = [scripts.bundle, ...(scripts.groups ?? []), scripts.packages].filter(
    (b) => b !== undefined,
  );
  for (const bundle of bundles) assets[basename(bundle)] = bundle;
  if (options.codeCache) {
    // Each bundle's cache beside it as `<name>.cache`, made from the same source text with the same file name as the
    // launcher's vm.Script (the asset's name), or V8 rejects it.
    const caches = bundles.map((b) => [b, join(workDir, basename(b).replace(/\.cjs$/, '.cache'))]);
    const make = `const { Script } = require('node:vm'); const fs = require('node:fs'); const path = require('node:path');
      for (let i = 1; i < process.argv.length; i += 2) {
        const script = new Script(fs.readFileSync(process.argv[i], 'latin1'), { filename: path.basename(process.argv[i]) });
        fs.writeFileSync(process.argv[i + 1], script.createCachedData());
      }`;
    execFileSync(generator, ['-e', make, ...caches.flat()], { stdio: 'pipe' });
    for (const [, cache] of caches) assets[basename(cache)] = cache;
  }
  writeFileSync(
    config,
    JSON.stringify({
      main: scripts.main,
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
