// Starts Keycloak distributions as local processes: the harness's own instance and the process kubelet's ones.
import { join } from 'node:path';
import { ComponentError } from './errors.ts';
import { get } from './https-get.ts';
import { javaHomeFor, preparedKeycloak } from './keycloak-dist.ts';
import { type BindMount, withMounts } from './kubelet-volumes.ts';
import { freePort, portWasBusy, withPortRetry } from './ports.ts';
import type { Postgres } from './postgres.ts';
import { type Daemon, startDaemon, stopDaemon, waitReady } from './proc.ts';

/** A running Keycloak: its daemon and loopback URLs. */
export type RunningKeycloak = { version: string; daemon: Daemon; httpUrl: string; managementUrl: string };

/** Whether Keycloak's readiness endpoint answers UP. */
export async function keycloakReady(managementUrl: string): Promise<boolean> {
  const res = await get(`${managementUrl}/health/ready`, {}, 3000);
  return res.status === 200 && /"status"\s*:\s*"UP"/.test(res.body);
}

/** Heap cap so that two Keycloaks fit in memory, unless the caller set one. */
const defaultHeap = '-Xms64m -Xmx512m';

/**
 * Starts `kc.sh <args>` with `env` on fresh loopback ports (HTTP, HTTPS, management), overriding only the
 * listen host and ports; returns once the process is spawned (see waitKeycloak for readiness).
 */
export async function spawnKeycloak(options: {
  name: string;
  version: string;
  env: Record<string, string>;
  args: readonly string[];
  logFile: string;
  log: (line: string) => void;
  /** Directories bound read-only into the process's own mount namespace (a pod's volumes). */
  mounts?: readonly BindMount[];
}): Promise<{ daemon: Daemon; httpPort: number; managementPort: number }> {
  const home = await preparedKeycloak(options.version, options.env, options.log);
  const javaHome = javaHomeFor(options.version);
  const [httpPort, managementPort, httpsPort] = [await freePort(), await freePort(), await freePort()];
  const env: Record<string, string> = {
    PATH: `${javaHome}/bin:${process.env.PATH}`,
    HOME: process.env.HOME ?? '/tmp',
    JAVA_HOME: javaHome,
    JAVA_OPTS_KC_HEAP: defaultHeap,
    ...(process.env.REALMFORGE_KEYCLOAK_JAVA_OPTIONS && {
      JDK_JAVA_OPTIONS: process.env.REALMFORGE_KEYCLOAK_JAVA_OPTIONS,
    }),
    ...options.env,
    KC_HTTP_HOST: '127.0.0.1',
    KC_HTTP_PORT: String(httpPort),
    KC_HTTPS_PORT: String(httpsPort),
    KC_HTTP_MANAGEMENT_PORT: String(managementPort),
  };
  const command = withMounts(join(home, 'bin', 'kc.sh'), options.args, options.mounts ?? []);
  const daemon = startDaemon(options.name, command.cmd, command.args, {
    env,
    logFile: options.logFile,
  });
  return { daemon, httpPort, managementPort };
}

/** Build-time options of the harness's Keycloak; the operator's Deployment uses the same, so both share a build. */
export const harnessBuildEnv: Record<string, string> = {
  KC_DB: 'postgres',
  KC_HEALTH_ENABLED: 'true',
  KC_METRICS_ENABLED: 'true',
  KC_CACHE: 'local',
};

/** Starts the harness's own Keycloak against the environment's PostgreSQL; resolves when /health/ready is UP. */
export async function startHarnessKeycloak(
  version: string,
  postgres: Postgres,
  runDir: string,
  admin: { username: string; password: string },
  log: (line: string) => void,
): Promise<RunningKeycloak> {
  const logFile = join(runDir, 'keycloak.log');
  const adminEnv: Record<string, string> = version.startsWith('25.')
    ? { KEYCLOAK_ADMIN: admin.username, KEYCLOAK_ADMIN_PASSWORD: admin.password }
    : { KC_BOOTSTRAP_ADMIN_USERNAME: admin.username, KC_BOOTSTRAP_ADMIN_PASSWORD: admin.password };
  const env = {
    ...harnessBuildEnv,
    KC_DB_URL_HOST: postgres.host,
    KC_DB_URL_PORT: String(postgres.port),
    KC_DB_URL_DATABASE: postgres.harnessDatabase,
    KC_DB_USERNAME: postgres.user,
    KC_DB_PASSWORD: postgres.password,
    KC_HTTP_ENABLED: 'true',
    KC_HOSTNAME_STRICT: 'false',
    ...adminEnv,
  };
  return withPortRetry(
    'keycloak',
    async () => {
      const { daemon, httpPort, managementPort } = await spawnKeycloak({
        name: `keycloak ${version}`,
        version,
        env,
        args: ['start'],
        logFile,
        log,
      });
      const managementUrl = `http://127.0.0.1:${managementPort}`;
      try {
        await waitReady(daemon, () => keycloakReady(managementUrl), 240_000);
      } catch (e) {
        await stopDaemon(daemon.pid, 2000);
        throw portWasBusy(logFile)
          ? new ComponentError('keycloak port already in use', ['address already in use'])
          : e;
      }
      log(`keycloak ${version} ready at http://127.0.0.1:${httpPort} (management ${managementUrl})`);
      return { version, daemon, httpUrl: `http://127.0.0.1:${httpPort}`, managementUrl };
    },
    (e) => e instanceof ComponentError && e.details.includes('address already in use'),
  );
}
