// Helm's CLI for the chart tests: built once from its Go module at the version pinned in versions.ts.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { goBinaries, goBuild } from './go-build.ts';
import { cacheDir } from './paths.ts';
import { alive } from './proc.ts';
import { helm } from './versions.ts';

/** The pid that holds a lock directory, or 0 while it is being written. */
function lockOwner(lock: string): number {
  try {
    return Number(readFileSync(join(lock, 'pid'), 'utf8').trim()) || 0;
  } catch {
    return 0;
  }
}

/** The path of the helm binary, building it into the cache on first use (a cold build takes a few minutes). */
export async function helmBinary(
  log: (line: string) => void = (line) => console.error(line),
): Promise<string> {
  const bin = goBinaries(helm).helm;
  if (!bin) throw new Error('the helm component in scripts/testenv/versions.ts builds no binary named helm');
  if (existsSync(bin)) return bin;
  // Test suites run in parallel: one process builds, the others wait for its lock to go.
  const lock = join(cacheDir(), 'locks', `helm-${helm.version}`);
  mkdirSync(join(cacheDir(), 'locks'), { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      const owner = lockOwner(lock);
      if (owner && !alive(owner)) rmSync(lock, { recursive: true, force: true });
      else await sleep(1000);
      if (existsSync(bin)) return bin;
    }
  }
  try {
    writeFileSync(join(lock, 'pid'), String(process.pid));
    await goBuild(helm, log);
    return bin;
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const started = Date.now();
  console.log(await helmBinary());
  console.error(`helm ready in ${Math.round((Date.now() - started) / 1000)} s`);
}
