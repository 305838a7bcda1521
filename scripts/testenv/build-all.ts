// `testenv build`: builds every Go binary (helm and prometheus included, for the chart tests and e2e suites) and fetches
// and augments both Keycloak lines (the selected one first: the harness runs it; the other is what an
// IdentityServer with that image tag gets from the process kubelet), so `up` and the e2e suites only start.
import { goBuild } from './go-build.ts';
import { helmBinary } from './helm.ts';
import { harnessBuildEnv } from './keycloak.ts';
import { preparedKeycloak, selectedKeycloak } from './keycloak-dist.ts';
import { prometheusBinaries } from './prometheus.ts';
import { goComponents, helm, keycloakVersions, prometheus } from './versions.ts';

/** Builds the Go components and helm (each cached by version) and prepares Keycloak, logging each phase's time. */
export async function buildAll(log: (line: string) => void): Promise<void> {
  for (const c of goComponents) {
    const t = Date.now();
    await goBuild(c, log);
    log(`phase build ${c.name} ${c.version}: ${Math.round((Date.now() - t) / 1000)} s`);
  }
  const h = Date.now();
  await helmBinary(log);
  log(`phase build ${helm.name} ${helm.version}: ${Math.round((Date.now() - h) / 1000)} s`);
  const p = Date.now();
  await prometheusBinaries(log);
  log(`phase build ${prometheus.name} ${prometheus.version}: ${Math.round((Date.now() - p) / 1000)} s`);
  const selected = selectedKeycloak().version;
  const others = Object.values(keycloakVersions).filter((k) => k.version !== selected);
  for (const version of [selected, ...others.map((k) => k.version)]) {
    const t = Date.now();
    await preparedKeycloak(version, harnessBuildEnv, log);
    log(`phase build keycloak ${version}: ${Math.round((Date.now() - t) / 1000)} s`);
  }
}

if (import.meta.main) await buildAll((l) => console.log(l));
