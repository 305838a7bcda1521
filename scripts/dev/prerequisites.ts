// What `realmforge dev up` must build or fetch before it can start, with an honest time estimate, and the tools
// that work needs: each missing one is named with its install command before anything starts, not 20 minutes in.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { binariesCached } from '../testenv/assets.ts';
import { installedJdks, javaMajorsFor } from '../testenv/keycloak-dist.ts';
import { cacheDir } from '../testenv/paths.ts';
import { run } from '../testenv/proc.ts';
import { keycloakVersions } from '../testenv/versions.ts';

/** One thing to build or fetch, and how long it takes on 2 cores. */
export type BuildStep = { readonly what: string; readonly minutes: readonly [number, number] };

/** The Keycloak line dev runs (the newest pinned one). */
export const devKeycloak = keycloakVersions['26'].version;

function keycloakPrepared(version: string): boolean {
  const dir = join(cacheDir(), 'keycloak', version);
  return existsSync(dir) && readdirSync(dir).some((h) => existsSync(join(dir, h, '.built')));
}

/** What is missing from the cache, in build order. */
export function buildPlan(): BuildStep[] {
  const steps: BuildStep[] = [];
  if (!process.env.KUBEBUILDER_ASSETS && !binariesCached())
    steps.push({
      what: 'etcd and Kubernetes (kube-apiserver, kube-controller-manager, kubectl) from their Go modules',
      minutes: [14, 30],
    });
  if (!keycloakPrepared(devKeycloak))
    steps.push({ what: `Keycloak ${devKeycloak} (fetched with Maven, then augmented)`, minutes: [2, 5] });
  return steps;
}

/** The estimate line for a plan: "nothing to build" or the sum of the steps' ranges. */
export function estimate(steps: readonly BuildStep[]): string {
  if (!steps.length)
    return 'everything is in the cache: starting takes about a minute, Keycloak one or two more';
  const lo = steps.reduce((n, s) => n + s.minutes[0], 0);
  const hi = steps.reduce((n, s) => n + s.minutes[1], 0);
  return `first run: building ${steps.map((s) => s.what).join('; ')}: about ${lo}-${hi} minutes on 2 cores (later runs reuse ${cacheDir()})`;
}

async function has(cmd: string, args: string[]): Promise<string> {
  return run(cmd, args).catch(() => '');
}

/** Every missing tool for `steps`, each with its install command; empty when all is there. */
export async function missingTools(steps: readonly BuildStep[]): Promise<string[]> {
  const missing: string[] = [];
  if (steps.some((s) => s.what.includes('Go modules'))) {
    const v = /go(\d+)\.(\d+)/.exec(await has('go', ['env', 'GOVERSION']));
    if (!v || Number(v[1]) * 100 + Number(v[2]) < 126)
      missing.push(
        'Go 1.26 or newer (builds etcd and Kubernetes): https://go.dev/dl/ (or apt-get install golang-1.26)',
      );
  }
  const majors = javaMajorsFor(devKeycloak);
  if (!majors.some((m) => installedJdks().has(m)))
    missing.push(
      `a JDK ${majors.join(' or ')} (runs Keycloak): apt-get install openjdk-${majors.at(-1)}-jdk-headless`,
    );
  if (steps.some((s) => s.what.includes('Maven')) && !(await has('mvn', ['--version'])))
    missing.push('Maven (fetches Keycloak from Maven Central): apt-get install maven');
  if (steps.some((s) => s.what.includes('Maven')) && !(await has('unzip', ['-v'])))
    missing.push('unzip (unpacks Keycloak): apt-get install unzip');
  const pg =
    existsSync('/usr/lib/postgresql') &&
    readdirSync('/usr/lib/postgresql').some((v) =>
      existsSync(join('/usr/lib/postgresql', v, 'bin', 'initdb')),
    );
  if (!pg && process.getuid?.() !== 0)
    missing.push("PostgreSQL (Keycloak's database): sudo apt-get install postgresql");
  if (!(await has('openssl', ['version'])))
    missing.push('openssl (the cluster certificates): apt-get install openssl');
  return missing;
}
