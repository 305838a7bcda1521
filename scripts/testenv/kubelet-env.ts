// The process kubelet's view of a container: its environment resolved as a kubelet would (values, secret and
// config map references, $(VAR) expansion), then in-cluster addresses mapped to loopback ones.
import type { V1Container, V1Pod } from '@kubernetes/client-node';

/** Reads a Secret's or ConfigMap's data (decoded), or undefined when it does not exist. */
export type DataLookup = (
  kind: 'Secret' | 'ConfigMap',
  namespace: string,
  name: string,
) => Promise<Record<string, string> | undefined>;

/** A container that cannot start because its configuration is incomplete (the kubelet's CreateContainerConfigError). */
export class ContainerConfigError extends Error {}

function expand(value: string, env: Record<string, string>): string {
  return value.replace(/\$\$|\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g, (m, name: string | undefined) =>
    name === undefined ? '$' : (env[name] ?? m),
  );
}

/** The container's environment exactly as its pod template states it (envFrom first, then env in order). */
export async function resolveEnv(
  pod: V1Pod,
  container: V1Container,
  lookup: DataLookup,
): Promise<Record<string, string>> {
  const ns = pod.metadata?.namespace ?? 'default';
  const env: Record<string, string> = {};
  const source = async (kind: 'Secret' | 'ConfigMap', name: string, optional?: boolean) => {
    const data = await lookup(kind, ns, name);
    if (!data && !optional) throw new ContainerConfigError(`${kind.toLowerCase()} "${name}" not found`);
    return data ?? {};
  };
  for (const from of container.envFrom ?? []) {
    const ref = from.secretRef ?? from.configMapRef;
    if (!ref?.name) continue;
    const data = await source(from.secretRef ? 'Secret' : 'ConfigMap', ref.name, ref.optional);
    for (const [k, v] of Object.entries(data)) env[`${from.prefix ?? ''}${k}`] = v;
  }
  for (const e of container.env ?? []) {
    if (e.valueFrom) {
      const ref = e.valueFrom.secretKeyRef ?? e.valueFrom.configMapKeyRef;
      if (ref) {
        const kind = e.valueFrom.secretKeyRef ? 'Secret' : 'ConfigMap';
        const data = await source(kind, ref.name ?? '', ref.optional);
        if (data[ref.key] === undefined && !ref.optional) {
          throw new ContainerConfigError(`couldn't find key ${ref.key} in ${kind} ${ns}/${ref.name}`);
        }
        if (data[ref.key] !== undefined) env[e.name] = data[ref.key];
      } else if (e.valueFrom.fieldRef) {
        const path = e.valueFrom.fieldRef.fieldPath;
        const fields: Record<string, string> = {
          'metadata.name': pod.metadata?.name ?? '',
          'metadata.namespace': ns,
          'metadata.uid': pod.metadata?.uid ?? '',
          'spec.nodeName': pod.spec?.nodeName ?? '',
          'spec.serviceAccountName': pod.spec?.serviceAccountName ?? '',
          'status.podIP': '127.0.0.1',
          'status.hostIP': '127.0.0.1',
        };
        if (fields[path] === undefined) throw new ContainerConfigError(`unsupported fieldRef ${path}`);
        env[e.name] = fields[path];
      } else {
        throw new ContainerConfigError(
          `env ${e.name}: unsupported valueFrom (resourceFieldRef is not modelled)`,
        );
      }
    } else {
      env[e.name] = expand(e.value ?? '', env);
    }
  }
  return env;
}

/** Where in-cluster addresses go: PostgreSQL's loopback port and the published Service endpoints. */
export type AddressMap = { postgresPort: number; endpoints: Record<string, string> };

const svcAddress =
  /\b([a-z0-9](?:[-a-z0-9]*[a-z0-9])?)\.([a-z0-9](?:[-a-z0-9]*[a-z0-9])?)\.svc(?:\.cluster\.local)?(?::(\d+))?\b/g;

/** CloudNativePG's read-write, read-only and read services: `<cluster>-rw`, `-ro`, `-r`. */
const isPostgresService = (name: string) => /-(rw|ro|r)$/.test(name);

/**
 * Rewrites `<svc>.<ns>.svc[:port]` in every value: CNPG services go to the local PostgreSQL (port 5432 to its
 * port, and KC_DB_URL_PORT=5432 likewise when KC_DB_URL_HOST named one); other services to their published
 * loopback endpoints. Anything else, including wrong ports, is left as written so that it fails as it would.
 */
export function mapClusterAddresses(env: Record<string, string>, map: AddressMap): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) {
    out[k] = v.replace(svcAddress, (m, name: string, ns: string, port: string | undefined) => {
      if (isPostgresService(name))
        return port ? `127.0.0.1:${port === '5432' ? map.postgresPort : port}` : '127.0.0.1';
      const local = port ? map.endpoints[`${name}.${ns}.svc:${port}`] : undefined;
      return local ? new URL(local).host : m;
    });
  }
  const host = env.KC_DB_URL_HOST ?? '';
  svcAddress.lastIndex = 0;
  const hostMatch = new RegExp(svcAddress.source).exec(host);
  if (hostMatch && isPostgresService(hostMatch[1]) && (env.KC_DB_URL_PORT ?? '5432') === '5432') {
    out.KC_DB_URL_PORT = String(map.postgresPort);
  }
  return out;
}

const units: Record<string, number> = {
  '': 1,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
};

/**
 * The JVM heap the container's memory limit gives Keycloak: its image takes 70% of the limit (kc.sh's
 * -XX:MaxRAMPercentage=70 inside a cgroup). A process has no cgroup, so the ceiling is passed as -Xmx; without a
 * limit the process Keycloak keeps spawnKeycloak's default. The heap starts small, as a process should on a shared
 * machine. A limit that is not a plain quantity is the pod's error, named.
 */
export function heapFromLimit(container: V1Container): Record<string, string> {
  const limit = container.resources?.limits?.memory;
  if (limit === undefined) return {};
  const match = /^(\d+(?:\.\d+)?)(|k|M|G|T|Ki|Mi|Gi|Ti)$/.exec(String(limit));
  if (!match)
    throw new ContainerConfigError(`resources.limits.memory ${limit} is not a quantity this kubelet reads`);
  const bytes = Number(match[1]) * (units[match[2] as string] as number);
  return { JAVA_OPTS_KC_HEAP: `-Xms64m -Xmx${Math.floor((bytes * 0.7) / 2 ** 20)}m` };
}
