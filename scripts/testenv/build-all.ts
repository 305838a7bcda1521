// Builds every Go component into the cache (used by `testenv build` and to time a cold build).
import { goBuild } from './go-build.ts';
import { goComponents } from './versions.ts';

/** Builds the Go components in order, logging each phase's time. */
export async function buildAll(log: (line: string) => void): Promise<void> {
  for (const c of goComponents) {
    const t = Date.now();
    await goBuild(c, log);
    log(`${c.name} ${c.version} ready in ${Math.round((Date.now() - t) / 1000)} s`);
  }
}

if (import.meta.main) await buildAll((l) => console.log(l));
