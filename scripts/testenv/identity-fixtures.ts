// Shared e2e fixtures: a database cluster as CloudNativePG would present it, an IdentityServer on it, and waits
// on the resources' status.
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { eventually, type TestEnv } from './harness.ts';
import { keycloakVersions } from './versions.ts';

export const keycloakVersion =
  keycloakVersions[process.env.REALMFORGE_KEYCLOAK === '25' ? '25' : '26'].version;

/** A CNPG Cluster `name` marked Ready (the test stands in for CNPG) and its `<name>-app` credentials Secret. */
export async function databaseCluster(env: TestEnv, namespace: string, name: string): Promise<void> {
  await env.apply({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: `${name}-app`, namespace },
    stringData: { username: env.state.postgres.user, password: env.state.postgres.password },
  } as never);
  await env.apply({
    apiVersion: 'postgresql.cnpg.io/v1',
    kind: 'Cluster',
    metadata: { name, namespace },
    spec: { instances: 1, storage: { size: '1Gi' } },
  } as never);
  const status = {
    apiVersion: 'postgresql.cnpg.io/v1',
    kind: 'Cluster',
    metadata: { name, namespace },
    status: {
      phase: 'Cluster in healthy state',
      conditions: [
        {
          type: 'Ready',
          status: 'True',
          reason: 'ClusterIsReady',
          message: 'ok',
          lastTransitionTime: new Date().toISOString(),
        },
      ],
    },
  };
  const res = await env.request(
    'PATCH',
    `/apis/postgresql.cnpg.io/v1/namespaces/${namespace}/clusters/${name}/status?fieldManager=cnpg-standin&force=true`,
    status,
    'application/apply-patch+yaml',
  );
  if (res.status >= 300)
    throw new Error(`marking Cluster ${namespace}/${name} ready: ${res.status} ${JSON.stringify(res.body)}`);
}

/** An IdentityServer `name` on the database cluster `cluster`, with its own PostgreSQL database. */
export function identityServer(
  namespace: string,
  name: string,
  cluster: string,
  extra: Record<string, unknown> = {},
) {
  return {
    apiVersion: 'realmforge.dev/v1',
    kind: 'IdentityServer',
    metadata: { name, namespace },
    spec: {
      image: { tag: keycloakVersion },
      database: { cluster, name: `kc_${namespace.replaceAll('-', '_')}_${name.replaceAll('-', '_')}` },
      ...extra,
    },
  };
}

/** An IdentityRealm or IdentityClient `name` with `spec`. */
export const identityResource = (
  kind: 'IdentityRealm' | 'IdentityClient',
  namespace: string,
  name: string,
  spec: Record<string, unknown>,
) => ({ apiVersion: 'realmforge.dev/v1', kind, metadata: { name, namespace }, spec });

/** A resource of ours, read as the admin. */
export async function getResource(env: TestEnv, plural: string, namespace: string, name: string) {
  const res = await env.request('GET', `/apis/realmforge.dev/v1/namespaces/${namespace}/${plural}/${name}`);
  return res.status === 200 ? res.body : undefined;
}

/** Waits until the resource's status satisfies `check`. */
export function waitStatus(
  env: TestEnv,
  plural: string,
  namespace: string,
  name: string,
  ms: number,
  check: (status: any) => boolean,
  what: string,
) {
  let last: unknown;
  return eventually(`${plural} ${namespace}/${name} ${what}`, ms, async () => {
    const o = await getResource(env, plural, namespace, name);
    last = o?.status;
    return o && check(o.status ?? {}) ? o : undefined;
  }).catch((e: Error) => {
    throw new Error(`${e.message}; last status: ${JSON.stringify(last)}`);
  });
}

/** `kubectl wait --for=condition=Ready <kind>/<name>`, as a user would run it. */
export async function kubectlWait(env: TestEnv, resource: string, namespace: string, timeoutSeconds: number) {
  if (!env.state.kubectl) throw new Error('the environment has no kubectl');
  const { stdout } = await promisify(execFile)(env.state.kubectl, [
    '--kubeconfig',
    env.state.kubeconfig,
    'wait',
    '-n',
    namespace,
    '--for=condition=Ready',
    resource,
    `--timeout=${timeoutSeconds}s`,
  ]);
  return stdout;
}

/** Runs kubectl as the harness admin with `input` on stdin; never throws on a non-zero exit. */
export function kubectl(
  env: TestEnv,
  args: readonly string[],
  input?: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const bin = env.state.kubectl;
  if (!bin) throw new Error('the environment has no kubectl');
  return new Promise((resolve, reject) => {
    const child = spawn(bin, ['--kubeconfig', env.state.kubeconfig, ...args], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
    child.stdin.end(input ?? '');
  });
}
