// The running environment's state file: what `up` started, so `env`, `status`, `down` and tests can find it.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { stateFile } from './paths.ts';
import type { Postgres } from './postgres.ts';
import type { Daemon } from './proc.ts';

/** Everything about a running environment that a client needs. */
export type TestEnvState = {
  runDir: string;
  startedAt: string;
  binaries: string;
  kubeconfig: string;
  kubectl?: string;
  apiserverUrl: string;
  etcdUrl: string;
  controllerManager: boolean;
  postgres: Omit<Postgres, 'daemon'>;
  keycloak?: {
    version: string;
    httpUrl: string;
    managementUrl: string;
    adminUsername: string;
    adminPassword: string;
  };
  endpointMapFile: string;
  crds: string[];
  /** Every process `up` started, in start order; `down` stops them in reverse by PID. */
  daemons: Daemon[];
  timings: Record<string, number>;
};

/** Reads the state file, or undefined when no environment is up. */
export function readState(file = stateFile()): TestEnvState | undefined {
  if (!existsSync(file)) return undefined;
  return JSON.parse(readFileSync(file, 'utf8')) as TestEnvState;
}

/** Writes the state file atomically. */
export function writeState(state: TestEnvState, file = stateFile()): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(`${file}.tmp`, `${JSON.stringify(state, null, 2)}\n`);
  renameSync(`${file}.tmp`, file);
}

/** The shell exports that point a client at the environment. */
export function envVars(state: TestEnvState, file = stateFile()): Record<string, string> {
  const vars: Record<string, string> = {
    KUBECONFIG: state.kubeconfig,
    REALMFORGE_TESTENV_STATE: file,
    REALMFORGE_ENDPOINT_MAP: state.endpointMapFile,
    TESTENV_APISERVER_URL: state.apiserverUrl,
    TESTENV_POSTGRES_URL: `postgresql://${state.postgres.user}:${state.postgres.password}@127.0.0.1:${state.postgres.port}/${state.postgres.database}`,
  };
  if (state.keycloak) {
    vars.TESTENV_KEYCLOAK_URL = state.keycloak.httpUrl;
    vars.TESTENV_KEYCLOAK_MANAGEMENT_URL = state.keycloak.managementUrl;
    vars.TESTENV_KEYCLOAK_VERSION = state.keycloak.version;
    vars.TESTENV_KEYCLOAK_ADMIN = state.keycloak.adminUsername;
    vars.TESTENV_KEYCLOAK_ADMIN_PASSWORD = state.keycloak.adminPassword;
  }
  if (state.kubectl) vars.TESTENV_KUBECTL = state.kubectl;
  return vars;
}
