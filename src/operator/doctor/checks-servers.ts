// Symptoms "database cluster not starting", "database connection refused" and "ingress not reachable": for each
// IdentityServer its CloudNativePG Cluster and credentials Secret, whether Keycloak answers, and its Ingress.

import { labelValue } from '../compile/names.ts';
import { observeDatabaseCluster } from '../controllers/identity-server/server-stuck.ts';
import { type DoctorCheck, fail, ok, warn } from './check.ts';
import { samples } from './checks-metrics.ts';
import { cnpgClusterCrd, type ServerFacts, type Snapshot } from './snapshot.ts';

function database(f: ServerFacts): DoctorCheck[] {
  const db = f.resolved.database;
  const server = `${f.resolved.namespace}/${f.resolved.name}`;
  const subject = `Cluster ${db.namespace}/${db.cluster}`;
  const checks: DoctorCheck[] = [];
  if (!f.cluster) {
    checks.push(
      fail(
        'database',
        subject,
        `missing (database of IdentityServer ${server})`,
        `no CloudNativePG Cluster ${db.cluster} in ${db.namespace}: Keycloak has no database`,
        `create the Cluster ${db.cluster} in ${db.namespace}, or correct spec.database.cluster / spec.database.namespace of ${server}`,
      ),
    );
  } else {
    // Ready exactly as the IdentityServer controller judges it (its Ready condition, else a healthy phase).
    const seen = observeDatabaseCluster(f.cluster) as { ready?: boolean; phase?: string };
    const st = (f.cluster.status ?? {}) as { readyInstances?: number; instances?: number };
    const phase = seen.phase ? ` (${seen.phase})` : '';
    if (seen.ready)
      checks.push(
        ok(
          'database',
          subject,
          `ready${st.readyInstances !== undefined ? `, ${st.readyInstances} of ${st.instances ?? '?'} instances` : ''}${phase}`,
        ),
      );
    else
      checks.push(
        fail(
          'database',
          subject,
          `not ready${phase}`,
          'storage not available, the database operator not running, or resource constraints',
          `kubectl describe cluster.postgresql.cnpg.io -n ${db.namespace} ${db.cluster}; kubectl get pvc,pods -n ${db.namespace}`,
        ),
      );
  }
  const secret = `Secret ${db.namespace}/${db.credentialsSecret}`;
  checks.push(
    f.credentialsSecretExists
      ? ok('database', secret, `database credentials of IdentityServer ${server} exist`)
      : fail(
          'database',
          secret,
          'missing',
          `the database credentials Secret of IdentityServer ${server} does not exist`,
          `CloudNativePG creates ${db.cluster}-app with the Cluster; otherwise create it (keys username, password) or set spec.database.credentialsSecret`,
        ),
  );
  return checks;
}

function keycloak(f: ServerFacts): DoctorCheck | undefined {
  const subject = `Keycloak of IdentityServer ${f.resolved.namespace}/${f.resolved.name}`;
  if (!f.keycloak) return undefined;
  if (f.keycloak.ok)
    return ok('keycloak', subject, `/health/ready on port 9000 answers UP (${f.keycloak.detail})`);
  return fail(
    'keycloak',
    subject,
    'not reachable or not ready',
    `/health/ready: ${f.keycloak.detail}`,
    `kubectl get pods -n ${f.resolved.namespace} -l app.kubernetes.io/instance=${labelValue(f.resolved.name)}; kubectl logs -n ${f.resolved.namespace} deployment/${f.resolved.serviceName}`,
  );
}

/** Keycloak's realms cache (realms, clients, roles and their lookups): an eviction means reads go back to the
 * database, and every realm create walks the creator grant's roles (docs/operator.md, Realm creation at scale). */
function realmsCache(f: ServerFacts): DoctorCheck | undefined {
  const m = f.keycloakMetrics;
  if (!m) return undefined;
  const subject = `Keycloak realms cache of IdentityServer ${f.resolved.namespace}/${f.resolved.name}`;
  const realms = (name: string) => samples(m.text ?? '', name).filter((x) => x.labels.cache === 'realms');
  const [evictions, entries] = ['vendor_statistics_evictions', 'vendor_statistics_approximate_entries'].map(
    realms,
  );
  if (!evictions.length || !entries.length)
    return warn(
      'keycloak',
      subject,
      'not reported',
      m.error
        ? `/metrics on port 9000: ${m.error}`
        : 'Keycloak\'s /metrics has no realms cache series (vendor_statistics_evictions{cache="realms"})',
      `read it by hand: kubectl port-forward -n ${f.resolved.namespace} service/${f.resolved.serviceName} 9000, then curl -s http://127.0.0.1:9000/metrics | grep 'cache="realms"'`,
    );
  const held = Math.max(...entries.map((x) => x.value));
  const evicted = Math.max(...evictions.map((x) => x.value));
  const replica = f.resolved.replicas > 1 ? " (one replica's cache)" : '';
  if (evicted === 0) return ok('keycloak', subject, `${held} entries, none evicted${replica}`);
  const option =
    f.resolved.majorVersion < 26
      ? 'Keycloak 25 has no option for it: move to Keycloak 26, or give a cache-config-file with a larger realms cache'
      : `set spec.additionalOptions cache-embedded-realms-max-count above ${held} (a realm with a client holds about 70-95 entries) and raise the memory limit with it`;
  return warn(
    'keycloak',
    subject,
    `full: ${evicted} entries evicted, ${held} held${replica}`,
    'evicted realms, clients and roles are read again from the database, and realm creates slow with every realm',
    option,
  );
}

function ingress(s: Snapshot, f: ServerFacts): DoctorCheck | undefined {
  const want = f.resolved.ingress;
  if (!want) return undefined;
  const subject = `Ingress ${f.resolved.namespace}/${f.resolved.serviceName}`;
  if (!f.ingress)
    return fail(
      'ingress',
      subject,
      'not created',
      'spec.ingress.enabled is true but the operator has not created the Ingress',
      "see the IdentityServer's resources check and the operator log",
    );
  const className = (f.ingress.spec as { ingressClassName?: string } | undefined)?.ingressClassName;
  const classes = s.ingressClasses.map((c) => c.metadata.name);
  const isDefault = (c: (typeof s.ingressClasses)[number]) =>
    c.metadata.annotations?.['ingressclass.kubernetes.io/is-default-class'] === 'true';
  if (className && !classes.includes(className))
    return fail(
      'ingress',
      subject,
      `IngressClass ${className} does not exist`,
      'no ingress controller serves this class',
      `install an ingress controller for ${className}, or set spec.ingress.className to one of: ${classes.join(', ') || '(none installed)'}`,
    );
  if (!className && !s.ingressClasses.some(isDefault))
    return warn(
      'ingress',
      subject,
      'no ingressClassName and no default IngressClass',
      'no ingress controller may pick this Ingress up',
      'set spec.ingress.className, or mark an IngressClass as the default',
    );
  const lb = (f.ingress.status as { loadBalancer?: { ingress?: unknown[] } } | undefined)?.loadBalancer
    ?.ingress;
  if (!lb?.length)
    return warn(
      'ingress',
      subject,
      `no address yet (class ${className ?? 'default'})`,
      'the ingress controller has not admitted it: controller down, or still starting',
      `check the ingress controller's pods; then DNS for ${want.host}${want.tlsSecretName ? ` and the certificate Secret ${want.tlsSecretName}` : ''}`,
    );
  return ok('ingress', subject, `class ${className ?? 'default'}, host ${want.host}, address assigned`);
}

/** The database operator (symptom "database operator not running"): CloudNativePG's Cluster CRD. */
function databaseOperator(s: Snapshot): DoctorCheck {
  const subject = `CustomResourceDefinition ${cnpgClusterCrd}`;
  if (s.crds[cnpgClusterCrd]) return ok('database', subject, 'CloudNativePG is installed');
  return (s.servers.length ? fail : warn)(
    'database',
    subject,
    'CloudNativePG is not installed',
    "no database operator: an IdentityServer's database cluster cannot exist",
    'install CloudNativePG (https://cloudnative-pg.io/documentation/current/installation_upgrade/)',
  );
}

/** Database, Keycloak reachability and Ingress of every IdentityServer. */
export function checkServers(s: Snapshot): DoctorCheck[] {
  return [
    databaseOperator(s),
    ...s.servers.flatMap((f) =>
      [...database(f), keycloak(f), realmsCache(f), ingress(s, f)].filter(
        (c): c is DoctorCheck => c !== undefined,
      ),
    ),
  ];
}
