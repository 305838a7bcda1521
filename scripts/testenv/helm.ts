// Helm's CLI for the chart tests: built once from its Go module at the version pinned in versions.ts.
import { lockedGoBuild } from './go-build.ts';
import { helm } from './versions.ts';

/** The path of the helm binary, building it into the cache on first use (a cold build takes a few minutes). */
export async function helmBinary(
  log: (line: string) => void = (line) => console.error(line),
): Promise<string> {
  return (await lockedGoBuild(helm, 'helm', log)).helm as string;
}

if (import.meta.main) {
  const started = Date.now();
  console.log(await helmBinary());
  console.error(`helm ready in ${Math.round((Date.now() - started) / 1000)} s`);
}
