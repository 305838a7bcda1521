// Brings the whole environment up and down: binaries, control plane, CRDs, PostgreSQL, Keycloak, process kubelet.
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveBinaries } from './assets.ts';
import { startControlPlane } from './control-plane.ts';
import { installAllCrds } from './crds.ts';
import { ComponentError } from './errors.ts';
import { get } from './https-get.ts';
import { keycloakReady, startHarnessKeycloak } from './keycloak.ts';
import { selectedKeycloak } from './keycloak-dist.ts';
import { recordedKubeletPids } from './kubelet.ts';
import { repoRoot, stateFile } from './paths.ts';
import { startPostgres } from './postgres.ts';
import { alive, type Daemon, startDaemon, stopDaemon, waitReady } from './proc.ts';
import { readState, type TestEnvState, writeState } from './state.ts';

export type UpOptions = { log: (line: string) => void; keycloak?: boolean; kubelet?: boolean };

/** Whether the environment in the state file is running (every daemon alive). */
export function isUp(state: TestEnvState | undefined): state is TestEnvState {
  return Boolean(state && state.daemons.length > 0 && state.daemons.every((d) => alive(d.pid)));
}

async function timed<T>(
  timings: Record<string, number>,
  phase: string,
  log: (l: string) => void,
  f: () => Promise<T>,
) {
  const t = Date.now();
  const result = await f();
  timings[phase] = Math.round((Date.now() - t) / 100) / 10;
  log(`phase ${phase}: ${timings[phase]} s`);
  return result;
}

/** Starts everything (or returns the environment already up) and records it in the state file. */
export async function up(options: UpOptions): Promise<TestEnvState> {
  const { log } = options;
  const existing = readState();
  if (isUp(existing)) {
    log(`already up (state ${stateFile()})`);
    return existing;
  }
  if (existing) await down({ log });
  const started = Date.now();
  const runDir = mkdtempSync(join(tmpdir(), 'realmforge-testenv-'));
  chmodSync(runDir, 0o755); // PostgreSQL runs as the postgres user when we are root and must reach its directory
  const timings: Record<string, number> = {};
  const daemons: Daemon[] = [];
  const state = {
    runDir,
    startedAt: new Date().toISOString(),
    daemons,
    timings,
    crds: [] as string[],
  } as unknown as TestEnvState;
  writeState(state);
  try {
    const kc = selectedKeycloak();
    const admin = { username: 'admin', password: 'testenv-admin' };
    const cluster = (async () => {
      const bins = await timed(timings, 'binaries', log, () => resolveBinaries(log));
      const cp = await timed(timings, 'control-plane', log, () => startControlPlane(bins, runDir, log));
      daemons.push(...cp.daemons);
      Object.assign(state, {
        binaries: bins.source,
        kubeconfig: cp.kubeconfig,
        kubectl: bins.kubectl,
        apiserverUrl: cp.apiserverUrl,
        etcdUrl: cp.etcdUrl,
        controllerManager: Boolean(bins.kubeControllerManager),
      });
      writeState(state);
      state.crds = await timed(timings, 'crds', log, () => installAllCrds(cp.kubeconfig, log));
    })();
    const database = (async () => {
      const pg = await timed(timings, 'postgres', log, () => startPostgres(runDir, log));
      daemons.push(pg.daemon);
      const { daemon: _, ...pgInfo } = pg;
      state.postgres = pgInfo;
      writeState(state);
      if (options.keycloak === false) return;
      const k = await timed(timings, 'keycloak', log, () =>
        startHarnessKeycloak(kc.version, pg, runDir, admin, log),
      );
      daemons.push(k.daemon);
      state.keycloak = {
        version: k.version,
        httpUrl: k.httpUrl,
        managementUrl: k.managementUrl,
        adminUsername: admin.username,
        adminPassword: admin.password,
      };
      writeState(state);
    })();
    const results = await Promise.allSettled([cluster, database]);
    const failed = results.find((r) => r.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
    state.endpointMapFile = join(runDir, 'endpoints.json');
    if (options.kubelet !== false) {
      await timed(timings, 'kubelet', log, async () => {
        const logFile = join(runDir, 'kubelet.log');
        writeState(state);
        const args = [join(repoRoot, 'scripts', 'testenv', 'kubelet-main.ts'), stateFile()];
        const d = startDaemon('process kubelet', process.execPath, args, { logFile });
        daemons.push(d);
        await waitReady(d, async () => readFileSync(logFile, 'utf8').includes('kubelet: ready'), 30_000);
      });
    }
    timings.total = Math.round((Date.now() - started) / 100) / 10;
    writeState(state);
    log(`up in ${timings.total} s (run dir ${runDir})`);
    return state;
  } catch (e) {
    await stopAll(daemons, runDir, log);
    state.daemons = [];
    writeState(state);
    log(`testenv up failed; logs kept in ${runDir} (\`testenv down\` removes them)`);
    throw e;
  }
}

async function stopAll(
  daemons: readonly Daemon[],
  runDir: string,
  log: (line: string) => void,
): Promise<void> {
  const kubelet = daemons.find((d) => d.name === 'process kubelet');
  if (kubelet) await stopDaemon(kubelet.pid, 20_000);
  for (const pid of Object.values(recordedKubeletPids(runDir))) await stopDaemon(pid);
  for (const d of [...daemons].reverse()) {
    if (alive(d.pid)) log(`stopping ${d.name} (PID ${d.pid})`);
    await stopDaemon(d.pid, 10_000, d.stopSignal);
  }
}

/** Stops every process the state file records (by PID), removes the run directory and the state file. */
export async function down(options: { log: (line: string) => void }): Promise<void> {
  const state = readState();
  if (!state) {
    options.log('nothing is up');
    return;
  }
  await stopAll(state.daemons, state.runDir, options.log);
  if (state.runDir && existsSync(state.runDir)) rmSync(state.runDir, { recursive: true, force: true });
  rmSync(stateFile(), { force: true });
  options.log(`down: removed ${state.runDir}`);
}

/** One line per component: running or not, and the API server's /readyz and Keycloak's readiness. */
export async function status(): Promise<{ up: boolean; lines: string[] }> {
  const state = readState();
  if (!state) return { up: false, lines: ['testenv is down'] };
  const lines = state.daemons.map(
    (d) => `${d.name.padEnd(24)} PID ${d.pid} ${alive(d.pid) ? 'running' : 'NOT RUNNING'}`,
  );
  const tls = {
    ca: readFileSync(join(state.runDir, 'pki', 'ca.crt')),
    cert: readFileSync(join(state.runDir, 'pki', 'admin.crt')),
    key: readFileSync(join(state.runDir, 'pki', 'admin.key')),
  };
  const readyz = await get(`${state.apiserverUrl}/readyz`, tls).then(
    (r) => r.body,
    (e: Error) => e.message,
  );
  lines.push(`kube-apiserver /readyz   ${readyz}`);
  if (state.keycloak) {
    const ready = await keycloakReady(state.keycloak.managementUrl).catch(() => false);
    lines.push(`keycloak /health/ready   ${ready ? 'UP' : 'not ready'}`);
  }
  return { up: isUp(state) && readyz === 'ok', lines };
}

/** Throws unless the environment is up; used by clients that need one. */
export function requireUp(): TestEnvState {
  const state = readState();
  if (!isUp(state)) throw new ComponentError('the test environment is not up: run `npm run testenv -- up`');
  return state;
}
