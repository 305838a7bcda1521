// Bearer tokens from a kubeconfig `exec` credential plugin (client.authentication.k8s.io, as used for EKS, GKE,
// AKS and OIDC login helpers): the command runs as a child process without a terminal and without blocking the
// event loop (watches, health and lease renewal go on while it runs); concurrent requests share one pending run.
// Its ExecCredential's token is used until shortly before its expirationTimestamp (or a 401), then it runs again.
import { execFile } from 'node:child_process';
import { isAbsolute, join } from 'node:path';
import type { Clock } from '../../core/clock.ts';
import { UsageError } from '../../core/errors.ts';
import { checkFields } from './kube-config-fields.ts';

/** Runs `command` with `args` and extra `env`, resolving with its stdout; rejects with its stderr when it fails. */
export type RunExec = (
  command: string,
  args: readonly string[],
  env: Record<string, string>,
) => Promise<string>;

/** The real runner: the plugin inherits the operator's environment plus its own, gets no stdin and 60 s. */
export const runExec: RunExec = (command, args, env) =>
  new Promise((resolve, reject) => {
    const child = execFile(
      command,
      args,
      { env: { ...process.env, ...env }, encoding: 'utf8', timeout: 60_000, maxBuffer: 1 << 20 },
      (error, stdout, stderr) => (error ? reject(Object.assign(error, { stderr })) : resolve(stdout)),
    );
    child.stdin?.end();
  });

/** A token is renewed this long before it expires. */
const renewEarlyMs = 30_000;

const apiVersions = ['client.authentication.k8s.io/v1', 'client.authentication.k8s.io/v1beta1'];

/** The cluster as an exec plugin with `provideClusterInfo: true` sees it (ExecCredential spec.cluster). */
export type ExecClusterInfo = Record<string, unknown>;

/** The `user.exec` settings of a kubeconfig, checked, with `command` resolved like kubectl does. */
function execSettings(value: unknown, kubeconfigFile: string, where: string, cluster: ExecClusterInfo) {
  const spec = checkFields('exec', value, `${where}: exec`);
  if (typeof spec.command !== 'string' || !spec.command)
    throw new UsageError(`${where}: exec needs a command`);
  const apiVersion = typeof spec.apiVersion === 'string' ? spec.apiVersion : apiVersions[0];
  if (!apiVersions.includes(apiVersion)) {
    throw new UsageError(
      `${where}: exec apiVersion ${apiVersion} is not supported: use ${apiVersions.join(' or ')}`,
    );
  }
  if (spec.interactiveMode === 'Always') {
    throw new UsageError(
      `${where}: exec interactiveMode Always needs a terminal, and the operator has none: use a plugin that runs with interactiveMode Never or IfAvailable`,
    );
  }
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
  const info: Record<string, unknown> = { interactive: false };
  if (spec.provideClusterInfo === true) info.cluster = cluster;
  env.KUBERNETES_EXEC_INFO = JSON.stringify({ apiVersion, kind: 'ExecCredential', spec: info });
  const installHint = typeof spec.installHint === 'string' ? spec.installHint.trim() : undefined;
  return { command, args, env, installHint };
}

/** The token source for `user.exec` of the kubeconfig `kubeconfigFile`. */
export function execToken(
  spec: unknown,
  kubeconfigFile: string,
  where: string,
  run: RunExec,
  clock: Clock,
  cluster: ExecClusterInfo = {},
) {
  const { command, args, env, installHint } = execSettings(spec, kubeconfigFile, where, cluster);
  let cached: { token: string; until: number } | undefined;
  let pending: Promise<{ token: string; until: number }> | undefined;
  const fetchToken = async () => {
    let out: string;
    try {
      out = await run(command, args, env);
    } catch (error) {
      if ((error as { code?: unknown }).code === 'ENOENT') {
        throw new UsageError(
          `${where}: the credential plugin \`${command}\` is not installed${installHint ? `: ${installHint}` : ' (the kubeconfig gives no installHint)'}`,
          { cause: error },
        );
      }
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
    async authorization() {
      if (!cached || clock.now() >= cached.until) {
        pending ??= fetchToken().finally(() => {
          pending = undefined;
        });
        cached = await pending;
      }
      return `Bearer ${cached.token}`;
    },
    refresh() {
      cached = undefined;
    },
  };
}
