import type { V1EnvVar } from '@kubernetes/client-node';
import type { IdentityServer } from '../../../generated/types/crds/identityserver.ts';
import { javaOptsEnv, kerberosVolumes } from './kerberos-keytabs.ts';
import type { ResolvedServer } from './resolved-server.ts';

const secretEnv = (name: string, secret: string, key: string, optional?: true): V1EnvVar => ({
  name,
  valueFrom: { secretKeyRef: { name: secret, key, ...(optional && { optional }) } },
});

/** Keycloak's environment variable for an option name: log-level -> KC_LOG_LEVEL. */
export function optionEnvName(option: string): string {
  return `KC_${option.toUpperCase().replaceAll('-', '_')}`;
}

/** The bootstrap admin variables: KC_BOOTSTRAP_ADMIN_* from 26 on, KEYCLOAK_ADMIN* on 25. Optional: Keycloak reads
 * them only on an empty database, and once the operator lets the Secret go a pod must still start, without a rollout
 * when it goes. */
function adminEnv(s: ResolvedServer): V1EnvVar[] {
  const [user, password] =
    s.majorVersion >= 26
      ? ['KC_BOOTSTRAP_ADMIN_USERNAME', 'KC_BOOTSTRAP_ADMIN_PASSWORD']
      : ['KEYCLOAK_ADMIN', 'KEYCLOAK_ADMIN_PASSWORD'];
  return [
    secretEnv(user, s.adminSecretName, 'username', true),
    secretEnv(password, s.adminSecretName, 'password', true),
  ];
}

/** Hostname settings: strict with backchannel-dynamic behind a public URL, otherwise not strict. */
function hostnameEnv(s: ResolvedServer): V1EnvVar[] {
  if (!s.hostname) return [{ name: 'KC_HOSTNAME_STRICT', value: 'false' }];
  const env: V1EnvVar[] = [
    { name: 'KC_HOSTNAME', value: s.hostname },
    // The operator talks to the in-cluster Service, so back-channel URLs follow the request.
    { name: 'KC_HOSTNAME_BACKCHANNEL_DYNAMIC', value: 'true' },
  ];
  if (s.ingress) env.push({ name: 'KC_PROXY_HEADERS', value: 'xforwarded' });
  return env;
}

/** Cache settings: a local cache for one replica, Infinispan over DNS discovery for several. */
function cacheEnv(s: ResolvedServer): V1EnvVar[] {
  if (s.replicas <= 1) return [{ name: 'KC_CACHE', value: 'local' }];
  return [
    { name: 'KC_CACHE', value: 'ispn' },
    { name: 'KC_CACHE_STACK', value: 'kubernetes' },
  ];
}

/** Keycloak's realms cache holds 10,000 entries by default, about 430 realms. Past it, every walk of the operator's
 * creator grant (20 roles for each realm it made, walked by each realm create and server-info read) reloads roles
 * from the database (docs/benchmarks.md). Room for about a thousand realms; Keycloak 25 has no such option; a value
 * in spec.additionalOptions wins. */
const realmsCache = { name: 'KC_CACHE_EMBEDDED_REALMS_MAX_COUNT', value: '100000' };

function realmsCacheEnv(s: ResolvedServer, extra: V1EnvVar[]): V1EnvVar[] {
  return s.majorVersion < 26 || extra.some((e) => e.name === realmsCache.name) ? [] : [realmsCache];
}

/** The JVM options (one JAVA_OPTS_APPEND): DNS discovery for several replicas, the krb5.conf with Kerberos. */
function javaOpts(server: IdentityServer, s: ResolvedServer): V1EnvVar[] {
  const discovery =
    s.replicas > 1 ? [`-Djgroups.dns.query=${s.discoveryServiceName}.${s.namespace}.svc.cluster.local`] : [];
  return javaOptsEnv([...discovery, ...kerberosVolumes(server).javaOpts]);
}

/** The complete, ordered environment of the Keycloak container. */
export function keycloakEnv(server: IdentityServer, s: ResolvedServer): V1EnvVar[] {
  const extra = (server.spec.additionalOptions ?? []).map(
    (o): V1EnvVar =>
      o.secret
        ? secretEnv(optionEnvName(o.name), o.secret.name, o.secret.key)
        : { name: optionEnvName(o.name), value: o.value ?? '' },
  );
  return [
    { name: 'KC_DB', value: 'postgres' },
    { name: 'KC_DB_URL_HOST', value: s.database.host },
    { name: 'KC_DB_URL_PORT', value: '5432' },
    { name: 'KC_DB_URL_DATABASE', value: s.database.name },
    secretEnv('KC_DB_USERNAME', s.dbSecretName, 'username'),
    secretEnv('KC_DB_PASSWORD', s.dbSecretName, 'password'),
    { name: 'KC_HTTP_ENABLED', value: 'true' },
    { name: 'KC_HTTP_PORT', value: '8080' },
    { name: 'KC_HTTP_MANAGEMENT_PORT', value: '9000' },
    { name: 'KC_HEALTH_ENABLED', value: 'true' },
    { name: 'KC_METRICS_ENABLED', value: 'true' },
    ...hostnameEnv(s),
    ...cacheEnv(s),
    ...realmsCacheEnv(s, extra),
    ...javaOpts(server, s),
    ...adminEnv(s),
    ...extra,
  ];
}
