// Where Keycloak finds the keytabs an IdentityServer declares (spec.kerberos.keytabs), and the volumes that put
// them there. A deployed Keycloak gets each keytab Secret mounted read-only as a directory (no subPath, so the
// kubelet refreshes a rotated Secret in place) at a fixed path; an external Keycloak's keytab is a path on its
// own host, taken as given. A realm's Kerberos settings name a keytab; the operator resolves the path from here.
import type { V1EnvVar, V1Volume, V1VolumeMount } from '@kubernetes/client-node';
import type { IdentityServer } from '../../../generated/types/crds/identityserver.ts';

/** The directory under which each keytab Secret is mounted (one directory per keytab). */
export const keytabRoot = '/etc/realmforge/keytabs';
/** The file name of a mounted keytab inside its directory. */
export const keytabFile = 'krb5.keytab';
/** Where the krb5.conf ConfigMap is mounted, and the file the JVM is told to read. */
export const krb5Dir = '/etc/realmforge/krb5';
export const krb5File = `${krb5Dir}/krb5.conf`;

/** The path of the keytab `name` in a deployed Keycloak's pods. */
export const keytabMountPath = (name: string) => `${keytabRoot}/${name}/${keytabFile}`;

/** The keytabs the server declares: name -> the path Keycloak reads. */
export function serverKeytabs(server: IdentityServer | undefined): ReadonlyMap<string, string> {
  return new Map(
    (server?.spec.kerberos?.keytabs ?? []).map((k) => [k.name, k.path ?? keytabMountPath(k.name)]),
  );
}

const volumeName = (name: string) => `keytab-${name}`;

/** The pod volumes and container mounts of a deployed server's keytabs and krb5.conf (empty without them). */
export function kerberosVolumes(server: IdentityServer): {
  volumes: V1Volume[];
  mounts: V1VolumeMount[];
  javaOpts: string[];
} {
  const kerberos = server.spec.kerberos;
  const keytabs = (kerberos?.keytabs ?? []).flatMap((k) => (k.secretRef ? [{ ...k, ref: k.secretRef }] : []));
  const volumes: V1Volume[] = keytabs.map((k) => ({
    name: volumeName(k.name),
    secret: { secretName: k.ref.name, items: [{ key: k.ref.key, path: keytabFile }] },
  }));
  const mounts: V1VolumeMount[] = keytabs.map((k) => ({
    name: volumeName(k.name),
    mountPath: `${keytabRoot}/${k.name}`,
    readOnly: true,
  }));
  const conf = kerberos?.krb5ConfigMapRef;
  if (!conf) return { volumes, mounts, javaOpts: [] };
  volumes.push({
    name: 'krb5-conf',
    configMap: { name: conf.name, items: [{ key: conf.key, path: 'krb5.conf' }] },
  });
  mounts.push({ name: 'krb5-conf', mountPath: krb5Dir, readOnly: true });
  return { volumes, mounts, javaOpts: [`-Djava.security.krb5.conf=${krb5File}`] };
}

/** JAVA_OPTS_APPEND with every JVM option the server needs, or nothing. */
export const javaOptsEnv = (opts: readonly string[]): V1EnvVar[] =>
  opts.length ? [{ name: 'JAVA_OPTS_APPEND', value: opts.join(' ') }] : [];
