// `testenv build`: builds every Go binary and fetches and augments the selected Keycloak, so `up` only starts.
import { goBuild } from './go-build.ts';
import { harnessBuildEnv } from './keycloak.ts';
import { preparedKeycloak, selectedKeycloak } from './keycloak-dist.ts';
import { goComponents } from './versions.ts';

/** Builds the Go components and prepares Keycloak, logging each phase's time. */
export async function buildAll(log: (line: string) => void): Promise<void> {
  for (const c of goComponents) {
    const t = Date.now();
    await goBuild(c, log);
    log(`phase build ${c.name} ${c.version}: ${Math.round((Date.now() - t) / 1000)} s`);
  }
  const t = Date.now();
  const { version } = selectedKeycloak();
  await preparedKeycloak(version, harnessBuildEnv, log);
  log(`phase build keycloak ${version}: ${Math.round((Date.now() - t) / 1000)} s`);
}

if (import.meta.main) await buildAll((l) => console.log(l));
