// Bearer tokens from a kubeconfig `exec` credential plugin (client.authentication.k8s.io, as used for EKS, GKE,
// AKS and OIDC login helpers): the command is run without a terminal, its ExecCredential's token is used until
// shortly before its expirationTimestamp (or until the API server answers 401), then the command runs again.
import { execFileSync } from 'node:child_process';
import { isAbsolute, join } from 'node:path';
import { UsageError } from '../../core/errors.ts';
import type { Clock } from './clock.ts';

/** Runs `command` with `args` and extra `env`, returning its stdout; throws with its stderr when it fails. */
export type RunExec = (command: string, args: readonly string[], env: Record<string, string>) => string;

/** The real runner: the plugin inherits the operator's environment plus its own, and gets 60 s. */
export const runExec: RunExec = (command, args, env) =>
  execFileSync(command, args, {
    env: { ...process.env, ...env },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 60_000,
  });

/** A token is renewed this long before it expires. */
const renewEarlyMs = 30_000;

type ExecSpec = {
  command?: unknown;
  args?: unknown;
  env?: unknown;
  apiVersion?: unknown;
};

/** The `user.exec` settings of a kubeconfig, checked, with `command` resolved like kubectl does. */
function execSettings(spec: ExecSpec, kubeconfigFile: string, where: string) {
  if (typeof spec.command !== 'string' || !spec.command)
    throw new UsageError(`${where}: exec needs a command`);
  const apiVersion =
    typeof spec.apiVersion === 'string' ? spec.apiVersion : 'client.authentication.k8s.io/v1';
  // A command with a path separator is relative to the kubeconfig's directory; a bare name is looked up in PATH.
  const command =
    spec.command.includes('/') && !isAbsolute(spec.command)
      ? join(kubeconfigFile, '..', spec.command)
      : spec.command;
  const args = Array.isArray(spec.args) ? spec.args.map(String) : [];
  const env: Record<string, string> = {};
  for (const entry of Array.isArray(spec.env) ? spec.env : []) {
    if (entry && typeof entry.name === 'string') env[entry.name] = String(entry.value ?? '');
  }
  env.KUBERNETES_EXEC_INFO = JSON.stringify({
    apiVersion,
    kind: 'ExecCredential',
    spec: { interactive: false },
  });
  return { command, args, env };
}

/** The token source for `user.exec` of the kubeconfig `kubeconfigFile`. */
export function execToken(spec: ExecSpec, kubeconfigFile: string, where: string, run: RunExec, clock: Clock) {
  const { command, args, env } = execSettings(spec, kubeconfigFile, where);
  let cached: { token: string; until: number } | undefined;
  const fetchToken = () => {
    let out: string;
    try {
      out = run(command, args, env);
    } catch (error) {
      const stderr = String((error as { stderr?: unknown }).stderr ?? '').trim();
      throw new UsageError(
        `${where}: the credential plugin \`${[command, ...args].join(' ')}\` failed: ${stderr || (error as Error).message}`,
        { cause: error },
      );
    }
    let status: { token?: unknown; expirationTimestamp?: unknown } | undefined;
    try {
      status = JSON.parse(out)?.status;
    } catch {
      // reported below
    }
    if (typeof status?.token !== 'string' || !status.token) {
      throw new UsageError(
        `${where}: the credential plugin \`${command}\` printed no ExecCredential with status.token (client certificates from plugins are not supported)`,
      );
    }
    const expires =
      typeof status.expirationTimestamp === 'string' ? Date.parse(status.expirationTimestamp) : Number.NaN;
    return { token: status.token, until: Number.isNaN(expires) ? Infinity : expires - renewEarlyMs };
  };
  return {
    authorization() {
      if (!cached || clock.now() >= cached.until) cached = fetchToken();
      return `Bearer ${cached.token}`;
    },
    refresh() {
      cached = undefined;
    },
  };
}
