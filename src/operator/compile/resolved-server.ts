import type {
  IdentityServer,
  IdentityServerSpec,
  ProbeTiming,
} from '../../../generated/types/crds/identityserver.ts';
import { ValidationError } from '../../core/errors.ts';
import { dnsLabelName, objectName } from './names.ts';

/** An IdentityServer with every default applied and every derived name computed once. */
export type ResolvedServer = {
  name: string;
  namespace: string;
  image: string;
  pullPolicy?: string;
  majorVersion: number;
  replicas: number;
  database: { cluster: string; namespace: string; credentialsSecret: string; name: string; host: string };
  /** The Service's name, also the Deployment's and the Ingress's (names.ts: shortened when too long). */
  serviceName: string;
  discoveryServiceName: string;
  adminSecretName: string;
  dbSecretName: string;
  hostname?: string;
  ingress?: { className?: string; host: string; tlsSecretName?: string; annotations: Record<string, string> };
  probes: Record<'startup' | 'liveness' | 'readiness', Required<ProbeTiming>>;
};

const defaultProbes = {
  // A cold Keycloak augments and migrates its database before it starts: allow ten minutes.
  startup: { initialDelaySeconds: 10, periodSeconds: 10, timeoutSeconds: 5, failureThreshold: 60 },
  liveness: { initialDelaySeconds: 0, periodSeconds: 10, timeoutSeconds: 5, failureThreshold: 3 },
  readiness: { initialDelaySeconds: 0, periodSeconds: 10, timeoutSeconds: 5, failureThreshold: 3 },
} as const;

/** The major version of a Keycloak tag such as 26.0.1 (NaN when the tag is not numeric). */
export function majorVersion(tag: string): number {
  return Number.parseInt(tag.split('.')[0], 10);
}

/** The public URL Keycloak advertises: spec.hostname (https:// added to a bare host), else the Ingress host. */
function publicUrl(server: IdentityServer): string | undefined {
  const { hostname, ingress } = server.spec;
  if (hostname) return /^https?:\/\//.test(hostname) ? hostname : `https://${hostname}`;
  if (ingress?.enabled && ingress.host)
    return `${ingress.tlsSecretName ? 'https' : 'http'}://${ingress.host}`;
  return undefined;
}

/** The parts of a deployed server's spec the CRD requires unless spec.external is set. */
export type DeployedSpec = Required<Pick<IdentityServerSpec, 'image' | 'database'>>;

/** Whether the server points at an existing Keycloak (spec.external) instead of one the operator deploys. */
export const isExternal = (server: IdentityServer) => server.spec.external !== undefined;

/** The image and database of a server the operator deploys; a ValidationError naming the fields otherwise. */
export function deployedSpec(server: IdentityServer): DeployedSpec {
  const { image, database } = server.spec;
  if (image && database) return { image, database };
  const key = `${server.metadata.namespace ?? 'default'}/${server.metadata.name}`;
  throw new ValidationError(
    server.spec.external
      ? `IdentityServer ${key} has spec.external: the operator deploys nothing for it`
      : `IdentityServer ${key}: spec.image and spec.database are required (or set spec.external for an existing Keycloak)`,
  );
}

/** Applies the schema's defaults and the naming rules; the one place where names are derived. */
export function resolveServer(server: IdentityServer): ResolvedServer {
  const { metadata } = server;
  const spec = { ...server.spec, ...deployedSpec(server) };
  const namespace = metadata.namespace ?? 'default';
  const dbNamespace = spec.database.namespace ?? namespace;
  const ingress = spec.ingress;
  return {
    name: metadata.name,
    namespace,
    image: `${spec.image.repository ?? 'quay.io/keycloak/keycloak'}:${spec.image.tag}`,
    pullPolicy: spec.image.pullPolicy,
    majorVersion: majorVersion(spec.image.tag),
    replicas: spec.replicas ?? 1,
    database: {
      cluster: spec.database.cluster,
      namespace: dbNamespace,
      credentialsSecret: spec.database.credentialsSecret ?? `${spec.database.cluster}-app`,
      name: spec.database.name ?? 'keycloak',
      host: `${spec.database.cluster}-rw.${dbNamespace}.svc`,
    },
    serviceName: dnsLabelName(metadata.name),
    discoveryServiceName: dnsLabelName(metadata.name, '-discovery'),
    adminSecretName: objectName(metadata.name, '-admin-credentials'),
    dbSecretName: objectName(metadata.name, '-db-credentials'),
    hostname: publicUrl(server),
    ingress:
      ingress?.enabled && ingress.host
        ? {
            className: ingress.className,
            host: ingress.host,
            tlsSecretName: ingress.tlsSecretName,
            annotations: ingress.annotations ?? {},
          }
        : undefined,
    probes: {
      startup: { ...defaultProbes.startup, ...spec.probes?.startup },
      liveness: { ...defaultProbes.liveness, ...spec.probes?.liveness },
      readiness: { ...defaultProbes.readiness, ...spec.probes?.readiness },
    },
  };
}

/** The in-cluster URLs of a server: public paths on 8080, health and metrics on 9000. */
export function serverEndpoints(s: ResolvedServer): {
  internal: string;
  management: string;
  public?: string;
} {
  const base = `${s.serviceName}.${s.namespace}.svc`;
  return { internal: `http://${base}:8080`, management: `http://${base}:9000`, public: s.hostname };
}

/**
 * The URLs of any server as its status shows them and the operator calls them: a deployed one's in-cluster
 * Service (and public URL), an existing one's spec.external.url (the operator calls it as given; no management URL).
 */
export function serverUrls(server: IdentityServer): {
  internal: string;
  management?: string;
  public?: string;
} {
  const external = server.spec.external;
  if (external) return { internal: external.url.replace(/\/+$/, '') };
  return serverEndpoints(resolveServer(server));
}
