// The Keycloak distribution: fetched from Maven Central with Maven, unpacked and augmented ("kc.sh build") in the
// cache once per version and set of build-time options, and run with a JDK the version supports.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MissingToolError } from './errors.ts';
import { cacheDir } from './paths.ts';
import { run } from './proc.ts';
import { keycloakArtifact, keycloakVersions } from './versions.ts';

/** Keycloak options that are fixed by `kc.sh build`; a different value needs another augmented distribution. */
export const buildTimeEnv = [
  'KC_CACHE',
  'KC_CACHE_STACK',
  'KC_DB',
  'KC_DB_DRIVER',
  'KC_FEATURES',
  'KC_FEATURES_DISABLED',
  'KC_FIPS_MODE',
  'KC_HEALTH_ENABLED',
  'KC_HTTP_MANAGEMENT_RELATIVE_PATH',
  'KC_HTTP_RELATIVE_PATH',
  'KC_METRICS_ENABLED',
  'KC_TRACING_ENABLED',
  'KC_TRANSACTION_XA_ENABLED',
];

/** The Keycloak line selected by `REALMFORGE_KEYCLOAK` (26 by default, or 25). */
export function selectedKeycloak(): { line: '25' | '26'; version: string } {
  const line = process.env.REALMFORGE_KEYCLOAK ?? '26';
  if (line !== '25' && line !== '26')
    throw new MissingToolError(`REALMFORGE_KEYCLOAK must be 25 or 26, not ${line}`);
  return { line, version: keycloakVersions[line].version };
}

/** Preferred JDK majors for a Keycloak version: the pinned lists, else 21/17/25 for 26.x and 21/17 for 25.x. */
export function javaMajorsFor(version: string): readonly number[] {
  for (const pin of Object.values(keycloakVersions)) if (pin.version === version) return pin.javaMajor;
  if (version.startsWith('26.')) return [21, 17, 25];
  if (version.startsWith('25.')) return [21, 17];
  throw new MissingToolError(
    `Keycloak ${version} is not supported by the test environment (25.x and 26.x are)`,
  );
}

/** JDKs on this machine (JAVA_HOME and /usr/lib/jvm/*), keyed by major version. */
export function installedJdks(): Map<number, string> {
  const homes = [
    process.env.JAVA_HOME,
    ...(existsSync('/usr/lib/jvm') ? readdirSync('/usr/lib/jvm').map((d) => join('/usr/lib/jvm', d)) : []),
  ];
  const found = new Map<number, string>();
  for (const home of homes) {
    if (!home || !existsSync(join(home, 'bin', 'java')) || !existsSync(join(home, 'release'))) continue;
    const m = /JAVA_VERSION="(\d+)/.exec(readFileSync(join(home, 'release'), 'utf8'));
    if (m && !found.has(Number(m[1]))) found.set(Number(m[1]), home);
  }
  return found;
}

/** The JAVA_HOME to run a Keycloak version with, or an error naming the JDK to install. */
export function javaHomeFor(version: string): string {
  const jdks = installedJdks();
  const majors = javaMajorsFor(version);
  for (const major of majors) {
    const home = jdks.get(major);
    if (home) return home;
  }
  throw new MissingToolError(
    `Keycloak ${version} needs a JDK ${majors.join(' or ')}; found ${[...jdks.keys()].join(', ') || 'none'}. ` +
      `Install one: apt-get install openjdk-${majors.at(-1)}-jdk-headless`,
  );
}

/** Downloads the distribution zip with Maven into the cache, once per version. */
export async function fetchKeycloak(version: string, log: (line: string) => void): Promise<string> {
  const dir = join(cacheDir(), 'downloads', 'keycloak');
  const zip = join(dir, `keycloak-quarkus-dist-${version}.zip`);
  if (existsSync(zip)) return zip;
  const mvn = await run('mvn', ['--version']).catch(() => '');
  if (!mvn)
    throw new MissingToolError('Maven is needed to fetch Keycloak from Maven Central: apt-get install maven');
  log(`fetching Keycloak ${version} with Maven`);
  const artifact = keycloakArtifact.replace('<version>', version);
  await run('mvn', ['-B', '-q', 'dependency:copy', `-Dartifact=${artifact}`, `-DoutputDirectory=${dir}`], {
    env: { ...process.env, JAVA_HOME: process.env.JAVA_HOME || [...installedJdks().values()][0] },
  });
  return zip;
}

const preparing = new Map<string, Promise<string>>();

/** The home of an unpacked distribution augmented with `buildEnv`'s build-time options (built once, then cached). */
export function preparedKeycloak(
  version: string,
  env: Record<string, string>,
  log: (line: string) => void,
): Promise<string> {
  const build = Object.fromEntries(buildTimeEnv.filter((k) => env[k] !== undefined).map((k) => [k, env[k]]));
  const hash = createHash('sha256').update(JSON.stringify(build)).digest('hex').slice(0, 12);
  const key = `${version}/${hash}`;
  let p = preparing.get(key);
  if (!p) {
    p = prepare(version, hash, build, log);
    preparing.set(key, p);
    p.catch(() => preparing.delete(key));
  }
  return p;
}

async function prepare(
  version: string,
  hash: string,
  build: Record<string, string>,
  log: (line: string) => void,
) {
  const dir = join(cacheDir(), 'keycloak', version, hash);
  const home = join(dir, `keycloak-${version}`);
  if (existsSync(join(dir, '.built'))) return home;
  const zip = await fetchKeycloak(version, log);
  const tmp = `${dir}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  await run('unzip', ['-q', zip, '-d', tmp]).catch((e) => {
    if (/could not run/.test(String(e.message)))
      throw new MissingToolError('unzip is needed: apt-get install unzip');
    throw e;
  });
  log(`augmenting Keycloak ${version} (kc.sh build, ${JSON.stringify(build)})`);
  const javaHome = javaHomeFor(version);
  await run(join(tmp, `keycloak-${version}`, 'bin', 'kc.sh'), ['build'], {
    env: { ...process.env, ...build, JAVA_HOME: javaHome, PATH: `${javaHome}/bin:${process.env.PATH}` },
    logFile: join(tmp, 'build.log'),
  });
  writeFileSync(join(tmp, '.built'), `${JSON.stringify(build)}\n`);
  rmSync(dir, { recursive: true, force: true });
  renameSync(tmp, dir);
  return home;
}
