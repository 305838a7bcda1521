// `realmforge dev up|down|logs|status` (npm start / npm stop): the embedded environment as a place to try the
// operator. up builds or fetches what is missing, starts the environment (no Docker), runs the operator under its
// own ServiceAccount, applies the examples' server, realm and client, shows their phases until Ready and prints
// how to get a token. Everything it starts is recorded by PID in its own state file, so down stops all of it.
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { IdentityServer } from '../../generated/types/crds/identityserver.ts';
import { describeError, exitCodeOf } from '../../src/core/errors.ts';
import type { Io } from '../../src/core/io.ts';
import { resolveServer } from '../../src/operator/compile/resolved-server.ts';
import { devRecordConfigMap } from '../../src/operator/doctor/dev-record.ts';
import { down, isUp, status, up } from '../testenv/env.ts';
import { MissingToolError } from '../testenv/errors.ts';
import { testEnv } from '../testenv/harness.ts';
import { installOperatorRbac, operatorKubeconfig, operatorNamespace } from '../testenv/operator-process.ts';
import { cacheDir, repoRoot, stateFile } from '../testenv/paths.ts';
import { alive, startDaemon, waitReady } from '../testenv/proc.ts';
import { readState, writeState } from '../testenv/state.ts';
import { buildPlan, estimate, missingTools } from './prerequisites.ts';
import { applyQuickstart, quickstartResources, summary, watchUntilReady } from './quickstart.ts';

type DevInfo = { operatorPid: number; operatorUrl: string; operatorLog: string };

/** dev's own state file (never the e2e runs'): REALMFORGE_DEV_STATE, or dev/state.json in the cache. */
export function devStateFile(): string {
  return process.env.REALMFORGE_DEV_STATE || join(cacheDir(), 'dev', 'state.json');
}
const infoFile = () => join(dirname(devStateFile()), 'operator.json');
const readInfo = (): DevInfo | undefined =>
  existsSync(infoFile()) ? (JSON.parse(readFileSync(infoFile(), 'utf8')) as DevInfo) : undefined;

async function startOperator(print: (l: string) => void): Promise<DevInfo> {
  const running = readInfo();
  if (running && alive(running.operatorPid)) return running;
  const env = await testEnv();
  await installOperatorRbac(env);
  const kubeconfig = await operatorKubeconfig(env, 7 * 24 * 3600);
  const logFile = join(env.state.runDir, 'operator.log');
  const daemon = startDaemon(
    'realmforge operator',
    process.execPath,
    [join(repoRoot, 'bin', 'realmforge.js'), 'run', '--metrics-port=0'],
    {
      logFile,
      cwd: repoRoot,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        KUBECONFIG: kubeconfig,
        REALMFORGE_ENDPOINT_MAP: env.state.endpointMapFile,
        REALMFORGE_METRICS_HOST: '127.0.0.1',
        POD_NAMESPACE: operatorNamespace,
      },
    },
  );
  const state = readState();
  if (state) writeState({ ...state, daemons: [...state.daemons, daemon] }); // down stops it with the rest
  let port: number | undefined;
  await waitReady(
    daemon,
    async () => {
      const started = readFileSync(logFile, 'utf8')
        .split('\n')
        .find((l) => l.includes('"operator started"'));
      port = started ? JSON.parse(started).metricsPort : undefined;
      return port !== undefined;
    },
    30_000,
  );
  const info = { operatorPid: daemon.pid, operatorUrl: `http://127.0.0.1:${port}`, operatorLog: logFile };
  writeFileSync(infoFile(), `${JSON.stringify(info, null, 2)}\n`);
  // So that a plain `realmforge doctor` knows this operator runs here as a process, and how to reach Keycloak.
  const record = { operatorUrl: info.operatorUrl, endpointMap: env.state.endpointMapFile };
  await env.apply(devRecordConfigMap(operatorNamespace, record) as never);
  print(
    `operator running as ServiceAccount ${operatorNamespace}/realmforge-operator (PID ${daemon.pid}, metrics ${info.operatorUrl})`,
  );
  return info;
}

async function devUp(io: Io): Promise<number> {
  const t0 = Date.now();
  const print = (line: string) => io.stdout.write(`${line}\n`);
  const progress = (line: string) =>
    print(`[${String(Math.round((Date.now() - t0) / 1000)).padStart(4)} s] ${line}`);
  const steps = isUp(readState()) ? [] : buildPlan();
  print(`realmforge dev: ${estimate(steps)}`);
  const missing = await missingTools(steps);
  if (missing.length)
    throw new MissingToolError(
      `missing prerequisites (nothing was started):\n${missing.map((m) => `  - ${m}`).join('\n')}`,
    );
  await up({ log: progress, keycloak: false });
  const info = await startOperator(progress);
  const env = await testEnv();
  const resources = quickstartResources();
  for (const c of resources.changes) progress(`adapted ${c}`);
  await applyQuickstart(env, resources);
  progress('applied the IdentityServer, IdentityRealm and IdentityClient; their phases until Ready:');
  const objects = [resources.server, resources.realm, resources.client];
  if (!(await watchUntilReady(env, objects, print, 10 * 60_000))) {
    print(
      `not Ready after 10 minutes; the environment stays up. Diagnose: REALMFORGE_ENDPOINT_MAP=${env.state.endpointMapFile} npx realmforge doctor --kubeconfig ${env.state.kubeconfig} --operator-url ${info.operatorUrl}`,
    );
    return 1;
  }
  const internal = `${resolveServer(resources.server as unknown as IdentityServer).serviceName}.${resources.server.metadata.namespace}.svc:8080`;
  const endpoints = JSON.parse(readFileSync(env.state.endpointMapFile, 'utf8')).endpoints ?? {};
  const keycloakUrl = String(endpoints[internal] ?? `http://${internal}`).replace(/\/$/, '');
  progress(`ready in ${Math.round((Date.now() - t0) / 1000)} s`);
  print(summary(env, resources, keycloakUrl, info.operatorUrl));
  return 0;
}

async function devLogs(io: Io, follow: boolean): Promise<number> {
  const info = readInfo();
  if (!info || !existsSync(info.operatorLog))
    throw new MissingToolError('realmforge dev is not up: run npm start');
  let offset = 0;
  const flush = () => {
    const text = readFileSync(info.operatorLog, 'utf8');
    io.stdout.write(text.slice(offset));
    offset = text.length;
  };
  flush();
  while (follow && alive(info.operatorPid)) {
    await new Promise((r) => setTimeout(r, 500));
    if (statSync(info.operatorLog).size !== offset) flush();
  }
  return 0;
}

/** Runs one dev command; resolves with the exit code. */
export async function devMain(
  command: string | undefined,
  io: Io,
  flags: { follow?: boolean } = {},
): Promise<number> {
  process.env.REALMFORGE_TESTENV_STATE = devStateFile();
  const log = (line: string) => io.stdout.write(`${line}\n`);
  try {
    switch (command) {
      case 'up':
        return await devUp(io);
      case 'down':
        await down({ log });
        rmSync(infoFile(), { force: true });
        return 0;
      case 'logs':
        return await devLogs(io, flags.follow ?? false);
      case 'status': {
        const s = await status();
        for (const line of s.lines) log(line);
        return s.up ? 0 : 1;
      }
      default:
        io.stderr.write(
          `realmforge dev: ${command ? `unknown command "${command}"` : 'no command given'}: use up, down, logs [--follow] or status\n`,
        );
        return 2;
    }
  } catch (error) {
    io.stderr.write(`realmforge dev ${command}: ${describeError(error)}\n`);
    if (command === 'up')
      io.stderr.write(
        `what was started stays up for diagnosis (state ${stateFile()}); npm stop removes it\n`,
      );
    return exitCodeOf(error);
  }
}

if (import.meta.main)
  process.exitCode = await devMain(process.argv[2], process, { follow: process.argv.includes('--follow') });
