// A live Keycloak for the commands that read one (import, plan): its URL and the admin credentials from a file or
// a Kubernetes Secret (keys username and password, or client-id and client-secret, as the operator's own Secrets
// hold them). Reads only: writes are never needed by these commands.
import { readFileSync } from 'node:fs';
import { fetch as undiciFetch } from 'undici';
import { parse as parseYaml } from 'yaml';
import { systemClock } from '../../core/clock.ts';
import { UsageError } from '../../core/errors.ts';
import { type AdminClient, createAdminClient } from '../keycloak/admin-client.ts';
import type { AdminIdentity } from '../keycloak/admin-identity.ts';
import { createRateLimiter } from '../keycloak/rate-limits.ts';
import { loadKubeAccess } from '../runtime/kube-config.ts';
import { kubeResources } from '../runtime/kube-resources.ts';
import { restKubeClient } from '../runtime/kube-rest-client.ts';
import { kubeTransport } from '../runtime/kube-transport.ts';
import { secretValue } from '../runtime/read-secret.ts';

export type KeycloakAccessFlags = {
  keycloakUrl?: string;
  credentials?: string;
  credentialsSecret?: string;
  kubeconfig?: string;
};

/** Refuses credentials without a URL and a URL without exactly one source of credentials. */
export function checkAccessFlags(flags: KeycloakAccessFlags): void {
  const live = flags.keycloakUrl !== undefined;
  if (live && !flags.credentials === !flags.credentialsSecret)
    throw new UsageError(
      '--keycloak-url needs the admin credentials: --credentials <file> or --credentials-secret <namespace>/<name>',
    );
  if (!live && (flags.credentials || flags.credentialsSecret))
    throw new UsageError('--credentials and --credentials-secret go with --keycloak-url');
}

/** Runs `use` with an admin client of the Keycloak the flags name. */
export async function withKeycloak<T>(
  flags: KeycloakAccessFlags,
  use: (admin: AdminClient) => Promise<T>,
): Promise<T> {
  const identity = flags.credentials
    ? credentialsOf(parseYaml(readCredentials(flags.credentials)), `--credentials ${flags.credentials}`)
    : await secretCredentials(flags);
  const limiter = createRateLimiter(
    { global: { tps: 20, burst: 20 }, namespace: { tps: 20, burst: 20 } },
    { waited: () => {}, queued: () => {} },
  );
  try {
    const admin = createAdminClient((flags.keycloakUrl as string).replace(/\/+$/, ''), identity, {
      http: (url, init) => undiciFetch(url, init),
      limiter,
      clock: {
        ...systemClock,
        setTimer: (ms: number, fn: () => void) => systemClock.setTimer(ms, fn, { keepAlive: true }),
      },
      random: Math.random,
      count: () => {},
      canWrite: () => true,
      sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
    });
    return await use(admin);
  } finally {
    await limiter.stop();
  }
}

function readCredentials(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(
      `cannot read --credentials ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
}

/** username and password, or client-id and client-secret (the keys of the operator's admin Secrets). */
function credentialsOf(data: unknown, where: string): AdminIdentity {
  const d = (data ?? {}) as Record<string, unknown>;
  if (typeof d.username === 'string' && typeof d.password === 'string')
    return { username: d.username, password: d.password };
  if (typeof d['client-id'] === 'string' && typeof d['client-secret'] === 'string')
    return { clientId: d['client-id'], clientSecret: d['client-secret'] } as AdminIdentity;
  throw new UsageError(`${where}: needs keys username and password (or client-id and client-secret)`);
}

async function secretCredentials(flags: KeycloakAccessFlags): Promise<AdminIdentity> {
  const [namespace, name, extra] = (flags.credentialsSecret as string).split('/');
  if (!namespace || !name || extra !== undefined)
    throw new UsageError(`--credentials-secret "${flags.credentialsSecret}": expected <namespace>/<name>`);
  const access = loadKubeAccess(
    { kubeconfig: flags.kubeconfig, env: process.env },
    (f) => readFileSync(f, 'utf8'),
    systemClock,
  );
  const transport = kubeTransport(access, { timeoutMs: 15_000, clock: systemClock });
  try {
    const kube = restKubeClient(transport, kubeResources(transport, systemClock), systemClock);
    const secret = await kube.get({ apiVersion: 'v1', kind: 'Secret', namespace, name });
    if (!secret) throw new UsageError(`--credentials-secret: Secret ${namespace}/${name} not found`);
    const data = Object.fromEntries(
      ['username', 'password', 'client-id', 'client-secret'].map((k) => [k, secretValue(secret, k)]),
    );
    return credentialsOf(data, `Secret ${namespace}/${name}`);
  } finally {
    await transport.close();
  }
}
