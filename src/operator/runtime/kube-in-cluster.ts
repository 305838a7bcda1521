// The operator inside a pod: KUBERNETES_SERVICE_HOST/PORT, the ServiceAccount CA, and its projected token read
// from a file that is re-read once a minute (a rotated token is picked up without a restart); the same token file
// reader serves a kubeconfig's tokenFile.
import { join } from 'node:path';
import type { Clock } from '../../core/clock.ts';
import { UsageError } from '../../core/errors.ts';
import type { KubeAccess, ReadText } from './kube-config.ts';
import { proxyFor } from './kube-proxy.ts';

/** The directory an in-cluster pod finds its ServiceAccount token, CA and namespace in. */
export const serviceAccountDir = '/var/run/secrets/kubernetes.io/serviceaccount';

const tokenMaxAgeMs = 60_000;

/** A bearer token read from `file`, re-read when older than a minute or after refresh(). */
export function fileToken(file: string, read: ReadText, clock: Clock) {
  let cached: { value: string; at: number } | undefined;
  return {
    async authorization() {
      if (!cached || clock.now() - cached.at >= tokenMaxAgeMs) {
        cached = { value: read(file).trim(), at: clock.now() };
      }
      return `Bearer ${cached.value}`;
    },
    refresh() {
      cached = undefined;
    },
  };
}

/** The access of a pod: KUBERNETES_SERVICE_HOST/PORT, the ServiceAccount token (re-read as it rotates) and CA. */
export function inClusterAccess(
  env: NodeJS.ProcessEnv,
  read: ReadText,
  clock: Clock,
  dir = serviceAccountDir,
): KubeAccess {
  const host = env.KUBERNETES_SERVICE_HOST ?? '';
  const port = env.KUBERNETES_SERVICE_PORT || '443';
  const tokenPath = join(dir, 'token');
  let ca: string;
  try {
    read(tokenPath);
    ca = read(join(dir, 'ca.crt'));
  } catch (error) {
    throw new UsageError(
      `KUBERNETES_SERVICE_HOST is set but the ServiceAccount token or CA cannot be read in ${dir} (${(error as Error).message}): mount the ServiceAccount token (automountServiceAccountToken) or set KUBECONFIG`,
      { cause: error },
    );
  }
  const token = fileToken(tokenPath, read, clock);
  const server = `https://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    server,
    ca,
    insecureSkipTlsVerify: false,
    proxy: proxyFor(server, undefined, env, 'in-cluster'),
    impersonation: {},
    authorization: token.authorization,
    refresh: token.refresh,
    source: 'in-cluster',
  };
}
