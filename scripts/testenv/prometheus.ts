// Prometheus and promtool for the alert tests and the monitoring e2e suite: built once from their Go module at the
// version pinned in versions.ts (`testenv build` builds them; a suite that needs them first builds them too).
import { lockedGoBuild } from './go-build.ts';
import { prometheus } from './versions.ts';

/** The paths of the prometheus and promtool binaries, building them into the cache on first use. */
export async function prometheusBinaries(
  log: (line: string) => void = (line) => console.error(line),
): Promise<{ prometheus: string; promtool: string }> {
  const bins = await lockedGoBuild(prometheus, 'promtool', log);
  return { prometheus: bins.prometheus as string, promtool: bins.promtool as string };
}

if (import.meta.main) {
  const started = Date.now();
  console.log(await prometheusBinaries());
  console.error(`prometheus ready in ${Math.round((Date.now() - started) / 1000)} s`);
}
