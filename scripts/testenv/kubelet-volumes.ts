// The process kubelet's volumes: a pod's Secret and ConfigMap volumes projected to files, as a real kubelet does
// (every key, or the volume's items, as files of the volume's directory), and mounted read-only at the container's
// mountPath inside a private mount namespace of the Keycloak process (unshare -m), so the host's own files at that
// path are never touched and two pods mounting the same path see their own data. Needs root (CAP_SYS_ADMIN);
// the mount point directories are created on the host when missing (empty, like a container image's would be).
// The service account token volume is not mounted (Keycloak does not use it).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { V1Container, V1Pod } from '@kubernetes/client-node';
import { ContainerConfigError } from './kubelet-env.ts';

/** Reads a Secret's (bytes) or ConfigMap's data, or undefined when it does not exist. */
export type RawLookup = (
  kind: 'Secret' | 'ConfigMap',
  namespace: string,
  name: string,
) => Promise<Record<string, Buffer> | undefined>;

/** Where the API server's ServiceAccount admission mounts the token volume (kube-api-access-*). */
const serviceAccountPath = '/var/run/secrets/kubernetes.io/serviceaccount';

/** A directory bound read-only at `target` in the process's mount namespace. */
export type BindMount = { source: string; target: string };

/** Projects the container's Secret and ConfigMap volumes into `dir` (one directory per volume). */
export async function projectVolumes(
  pod: V1Pod,
  container: V1Container,
  lookup: RawLookup,
  dir: string,
): Promise<BindMount[]> {
  const ns = pod.metadata?.namespace ?? 'default';
  const mounts: BindMount[] = [];
  for (const m of container.volumeMounts ?? []) {
    const volume = pod.spec?.volumes?.find((v) => v.name === m.name);
    if (!volume) throw new ContainerConfigError(`volumeMount ${m.name}: the pod has no such volume`);
    // The service account token the API server injects into every pod: Keycloak does not read it.
    if (volume.projected && m.mountPath === serviceAccountPath) continue;
    if (m.subPath) throw new ContainerConfigError(`volumeMount ${m.name}: subPath is not modelled`);
    const source = volume.secret
      ? { kind: 'Secret' as const, name: volume.secret.secretName ?? '', items: volume.secret.items }
      : volume.configMap
        ? { kind: 'ConfigMap' as const, name: volume.configMap.name ?? '', items: volume.configMap.items }
        : undefined;
    if (!source)
      throw new ContainerConfigError(`volume ${m.name}: only secret and configMap volumes are modelled`);
    const data = await lookup(source.kind, ns, source.name);
    if (!data) throw new ContainerConfigError(`${source.kind.toLowerCase()} "${source.name}" not found`);
    const files = source.items ?? Object.keys(data).map((key) => ({ key, path: key }));
    const volumeDir = join(dir, m.name);
    rmSync(volumeDir, { recursive: true, force: true });
    mkdirSync(volumeDir, { recursive: true });
    for (const { key, path } of files) {
      const value = data[key];
      if (value === undefined)
        throw new ContainerConfigError(`couldn't find key ${key} in ${source.kind} ${ns}/${source.name}`);
      mkdirSync(join(volumeDir, path, '..'), { recursive: true });
      writeFileSync(join(volumeDir, path), value, { mode: 0o444 });
    }
    mounts.push({ source: volumeDir, target: m.mountPath });
  }
  return mounts;
}

const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;

/** The command that runs `cmd args` with `mounts` bound read-only in a private mount namespace (as is without
 * mounts). The shell execs the command, so the PID is the process's own. */
export function withMounts(
  cmd: string,
  args: readonly string[],
  mounts: readonly BindMount[],
): { cmd: string; args: string[] } {
  if (!mounts.length) return { cmd, args: [...args] };
  if (process.getuid?.() !== 0)
    throw new ContainerConfigError(
      'volume mounts need the process kubelet to run as root (a mount namespace)',
    );
  const script = [
    'set -e',
    ...mounts.flatMap(({ source, target }) => [
      `mkdir -p ${quote(target)}`,
      `mount --bind ${quote(source)} ${quote(target)}`,
      `mount -o remount,bind,ro ${quote(target)}`,
    ]),
    'exec "$@"',
  ].join('\n');
  return { cmd: 'unshare', args: ['-m', '--propagation', 'private', 'sh', '-c', script, 'sh', cmd, ...args] };
}
